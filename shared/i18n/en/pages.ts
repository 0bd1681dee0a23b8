import type { Widen } from '../types';
import type { pages as sv } from '../sv/pages';

export const pages: Widen<typeof sv> = {
  contact: {
    title: 'Contact us',
    intro: 'Have a question or a suggestion, or found something that is not right? Write to us and we will answer by e-mail.',
    name: 'Name',
    email: 'Email',
    message: 'Message',
    submit: 'Send',
    sending: 'Sending...',
    failed: (reason: string) => `Error occurred: ${reason}`,
    privacyBefore: 'We store your message so that we can answer you. Read more in the ',
    privacyLink: 'privacy policy',
  },
};
