/** The community comment feed on the home page; built by the comments work. */
export function CommentFeed() {
  return <section />;
}
