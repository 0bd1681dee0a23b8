export default function Page() {
  return <div className="container page">registration</div>;
}
