export default function Page() {
  return <div className="container page">forgot-password</div>;
}
