// Kept free of zod: the client's first chunk imports every message, not the schemas.
/** Server messages of place suggestions (issue 31.5): key → English text. */
export const suggestionMessages = {
  suggestionLoginRequired: 'Please log in to suggest a place.',
  suggestionNotFound: 'Suggestion not found.',
  suggestionDecided: 'This suggestion has already been decided.',
  suggestionsPendingTooMany: 'You have 5 suggestions waiting for a moderator. Please wait until one of them is decided.',
  websiteInvalid: 'Enter the website as an address starting with http:// or https://.',
  websiteTooLong: 'The website address is too long.',
  rejectReasonTooShort: 'Give a reason of at least 2 characters.',
  rejectReasonTooLong: 'The reason can be at most 500 characters long.',
  suggestionReceived: 'Thank you! A moderator will look at your suggestion.',
  suggestionApproved: 'The place was added to the directory.',
  suggestionRejected: 'The suggestion was rejected.',
} as const;
