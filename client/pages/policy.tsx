export default function Page() {
  return <div className="container page">policy</div>;
}
