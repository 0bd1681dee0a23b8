export default function Page() {
  return <div className="container page">comment-moderation</div>;
}
