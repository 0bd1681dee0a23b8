// Kept free of zod: the client's first chunk imports every message, not the schemas.
/** Messages of the business facts (issue 31.1): key → English text. */
export const businessFactsMessages = {
  websiteInvalid: 'Enter a web address starting with https://.',
  phoneInvalid: 'Enter a phone number of digits, spaces and an optional +.',
  postalCodeInvalid: 'Enter a postal code of five digits, such as 211 20.',
  townInvalid: 'Enter a town of 2 to 50 characters.',
  coordinatesInvalid: 'Enter both latitude and longitude in degrees, or neither.',
  hoursTimeInvalid: 'Enter times as HH:MM, such as 09:30.',
  hoursDayInvalid: 'A weekday is 1 (Monday) to 7 (Sunday).',
  hoursDateInvalid: 'Enter dates as YYYY-MM-DD.',
  hoursDateTwice: 'Each date may have only one exception.',
  hoursNoteTooLong: 'The note is too long.',
  hoursTooMany: 'Too many opening hours.',
  branchNotOfBusiness: 'That branch belongs to another business.',
} as const;
