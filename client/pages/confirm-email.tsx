export default function Page() {
  return <div className="container page">confirm-email</div>;
}
