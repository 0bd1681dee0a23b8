export default function Page() {
  return <div className="container page">not-found</div>;
}
