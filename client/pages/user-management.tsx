export default function Page() {
  return <div className="container page">user-management</div>;
}
