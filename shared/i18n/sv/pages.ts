export const pages = {
  contact: {
    title: 'Kontakta oss',
    intro: 'Har du en fråga, ett förslag eller hittat något som inte stämmer? Skriv till oss, så svarar vi via e-post.',
    name: 'Namn',
    email: 'E-post',
    message: 'Meddelande',
    submit: 'Skicka',
    sending: 'Skickar...',
    failed: (reason: string) => `Ett fel uppstod: ${reason}`,
    privacyBefore: 'Vi sparar ditt meddelande för att kunna svara dig. Läs mer i ',
    privacyLink: 'integritetspolicyn',
  },
} as const;
