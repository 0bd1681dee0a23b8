export default function Page() {
  return <div className="container page">google-login</div>;
}
