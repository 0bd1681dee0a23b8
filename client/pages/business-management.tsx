export default function Page() {
  return <div className="container page">business-management</div>;
}
