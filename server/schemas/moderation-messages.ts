// Kept free of zod: the client's first chunk imports every message, not the schemas.
/** Server messages of reports and moderation: key → English text. */
export const moderationMessages = {
  reportLoginRequired: 'Please log in to report a post.',
  reportReasonInvalid: 'Choose a reason for your report.',
  reportNoteTooLong: 'The note can be at most 500 characters long.',
  reportOwnPost: 'You cannot report your own post.',
  reportThanks: 'Thank you! A moderator will look at it.',
  reportAlreadySent: 'You have already reported this post.',
  reportNotFound: 'There are no open reports of this post.',
  reportResolved: 'The reports were resolved.',
} as const;
