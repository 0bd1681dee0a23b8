export default function Page() {
  return <div className="container page">reset-password</div>;
}
