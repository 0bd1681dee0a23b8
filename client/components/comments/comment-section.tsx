/** The comment area of a business page; built by the comments work. */
export function CommentSection({ businessId }: { businessId: string }) {
  return <section data-business-id={businessId} />;
}
