import type { Language } from '../i18n';
import type { LegalDocument } from './types';

/** The ten sections in order; `cookies` is the anchor the footer's Cookie Policy link opens. */
type PolicySections = readonly ['controller', 'data', 'purposes', 'sharing', 'retention', 'security', 'location', 'rights', 'cookies', 'changes'];

export type PolicyDocument = LegalDocument<PolicySections>;

const sv: PolicyDocument = {
  title: 'Integritetspolicy',
  updatedLabel: 'Senast uppdaterad',
  updated: '2 juni 2024',
  isoDate: '2024-06-02',
  tocLabel: 'Innehåll',
  intro: [
    'Här berättar vi vilka personuppgifter Recensera behandlar, varför, hur länge och vilka rättigheter du har enligt dataskyddsförordningen (GDPR). Vi samlar bara in det som behövs för att webbplatsen ska fungera. Vi visar ingen reklam, säljer inga uppgifter och spårar dig inte.',
  ],
  sections: [
    {
      id: 'controller',
      title: 'Vem som ansvarar för dina uppgifter',
      blocks: [
        'Recensera är en gemenskapsdriven webbplats. Den förening, grupp eller person som driver just den här webbplatsen (”vi”) är personuppgiftsansvarig för uppgifterna som behandlas här.',
        [
          'Har du frågor om hur vi hanterar dina uppgifter, eller vill du använda dina rättigheter, skriver du till oss via ',
          { link: 'kontaktformuläret', href: '/contact' },
          '.',
        ],
      ],
    },
    {
      id: 'data',
      title: 'Vilka uppgifter vi behandlar',
      blocks: [
        {
          list: [
            [
              { strong: 'Konto: ' },
              'förnamn, efternamn, e-postadress, profilbild, valt språk och om kontot är bekräftat, administratör eller avstängt. Ditt lösenord sparas aldrig i klartext, bara som ett säkert hashvärde (argon2id). Loggar du in med Google får vi ditt namn och din e-postadress från Google, men inget lösenord.',
            ],
            [{ strong: 'Innehåll: ' }, 'kommentarer, svar, bilder, stjärnbetyg, betyg av andras inlägg, favoriter och den ort eller filial du anger.'],
            [{ strong: 'Kontaktmeddelanden: ' }, 'namn, e-postadress, meddelande och vilket språk du använde.'],
            [
              { strong: 'Tekniska uppgifter: ' },
              'inloggningssessioner (när de skapades och när de går ut) och din IP-adress, som används för att begränsa antalet försök vid inloggning, registrering och kontakt och som kan förekomma i serverns loggar.',
            ],
          ],
        },
        'Bilder du laddar upp räknas om på servern och all inbäddad metadata tas bort, till exempel kameramodell och den GPS-position en mobilkamera ofta sparar.',
      ],
    },
    {
      id: 'purposes',
      title: 'Varför vi behandlar uppgifterna och med vilken rätt',
      blocks: [
        {
          list: [
            [
              { strong: 'Ge dig ett konto och publicera det du skriver' },
              ' – för att fullgöra avtalet med dig när du godkänner användarvillkoren (artikel 6.1 b GDPR).',
            ],
            [
              { strong: 'Skicka e-post om ditt konto' },
              ', som bekräftelse av e-postadressen och återställning av lösenord – också för att fullgöra avtalet. Vi skickar inga nyhetsbrev eller marknadsföring.',
            ],
            [
              { strong: 'Moderera innehåll, förhindra missbruk och skydda webbplatsen' },
              ' – vårt berättigade intresse av en trygg och pålitlig tjänst (artikel 6.1 f).',
            ],
            [{ strong: 'Svara på kontaktmeddelanden' }, ' – vårt berättigade intresse av att kunna svara dig (artikel 6.1 f).'],
            [{ strong: 'Följa lagkrav' }, ', till exempel när en myndighet har rätt att begära ut uppgifter (artikel 6.1 c).'],
          ],
        },
        'Vi fattar inga automatiserade beslut om dig och gör ingen profilering.',
      ],
    },
    {
      id: 'sharing',
      title: 'Vem som kan se dina uppgifter',
      blocks: [
        'Det du publicerar är offentligt: ditt namn, din profilbild och dina kommentarer, svar, bilder och betyg syns för alla som besöker webbplatsen, även utan konto. Din e-postadress och dina favoriter visas inte för andra användare.',
        'Webbplatsens administratörer ser användarnas namn, e-postadress och roll, och kan ta bort innehåll och konton när de modererar.',
        'Vi säljer aldrig uppgifter. Vi lämnar bara ut dem till leverantörer som hjälper oss att driva webbplatsen och som bara får använda dem för det: den som står för servern och den e-posttjänst som skickar våra mejl. Om du väljer att logga in med Google utbyter vi uppgifter med Google för inloggningen. Uppgifter lämnas också ut när lagen kräver det.',
      ],
    },
    {
      id: 'retention',
      title: 'Hur länge vi sparar uppgifterna',
      blocks: [
        {
          list: [
            'Konto och innehåll sparas tills du raderar ditt konto eller en administratör tar bort det. Då raderas kontot tillsammans med dina kommentarer, svar, betyg, favoriter och bilder på en gång.',
            'En inloggningssession gäller i 30 dagar och förlängs när du använder webbplatsen. När du loggar ut eller sessionen går ut tas den bort.',
            'En länk för att bekräfta e-postadressen gäller i 24 timmar och en länk för att återställa lösenordet i 1 timme.',
            'Kontaktmeddelanden sparas så länge vi behöver dem för att hantera ditt ärende.',
            'Räknare för antalet försök per IP-adress finns bara i serverns minne och försvinner efter en minut.',
          ],
        },
      ],
    },
    {
      id: 'security',
      title: 'Hur vi skyddar uppgifterna',
      blocks: [
        'Lösenord lagras som argon2id-hashvärden och inloggningsnycklar bara som hashvärden, så en kopia av databasen räcker inte för att logga in som någon annan. Inloggningscookien kan inte läsas av skript på sidan, förfrågningar som ändrar något måste komma från webbplatsen själv, och antalet inloggningsförsök är begränsat. Bara administratörer kan se andra användares e-postadresser.',
      ],
    },
    {
      id: 'location',
      title: 'Var uppgifterna finns',
      blocks: [
        'Uppgifterna lagras i en databas på den server där den här webbplatsen körs; de skickas inte till någon analys- eller molntjänst. Loggar du in med Google behandlar Google LLC uppgifter om inloggningen enligt Googles egen integritetspolicy; Google LLC omfattas av ramverket för dataskydd mellan EU och USA (EU–US Data Privacy Framework).',
      ],
    },
    {
      id: 'rights',
      title: 'Dina rättigheter',
      blocks: [
        'Enligt GDPR har du följande rättigheter. Det mesta kan du göra själv direkt på webbplatsen; annars skriver du till oss så svarar vi inom en månad.',
        {
          list: [
            [
              { strong: 'Rätt till tillgång: ' },
              'få veta vilka uppgifter vi har om dig. Knappen ',
              { strong: 'Ladda ner mina uppgifter' },
              ' på ',
              { link: 'profilsidan', href: '/user' },
              ' ger dig en fil med allt vi har sparat om dig.',
            ],
            [{ strong: 'Rätt till rättelse: ' }, 'ändra namn, profilbild och språk under Redigera på profilsidan, eller be oss rätta något annat som är fel.'],
            [
              { strong: 'Rätt till radering: ' },
              'ta bort ditt konto med knappen ',
              { strong: 'Radera konto' },
              ' på profilsidan. Kontot och allt du har publicerat raderas direkt.',
            ],
            [{ strong: 'Rätt till begränsning: ' }, 'be oss att tills vidare bara lagra dina uppgifter, till exempel medan vi utreder om något är felaktigt.'],
            [
              { strong: 'Rätt till dataportabilitet: ' },
              'filen från Ladda ner mina uppgifter är i det maskinläsbara formatet JSON, så att du kan ta med uppgifterna till en annan tjänst.',
            ],
            [
              { strong: 'Rätt att invända: ' },
              'invända mot behandling som vi grundar på berättigat intresse. Vi slutar då om vi inte har tungt vägande skäl att fortsätta.',
            ],
            [
              { strong: 'Rätt att klaga: ' },
              'lämna klagomål till ',
              { strong: 'Integritetsskyddsmyndigheten (IMY)' },
              ', som är tillsynsmyndighet i Sverige: ',
              { link: 'www.imy.se', href: 'https://www.imy.se' },
              '.',
            ],
          ],
        },
      ],
    },
    {
      id: 'cookies',
      title: 'Cookies',
      blocks: [
        'Recensera använder bara de cookies som behövs för att webbplatsen ska fungera. Vi använder inga cookies för spårning, statistik eller reklam, och inga tredjepartscookies.',
        {
          table: {
            caption: 'De cookies webbplatsen sätter',
            head: ['Cookie', 'Vad den gör', 'Hur länge'],
            rows: [
              [
                [{ code: 'session' }],
                'Håller dig inloggad. Den är HttpOnly, så skript på sidan kan inte läsa den.',
                '30 dagar, förlängs när du använder webbplatsen; tas bort när du loggar ut',
              ],
              [[{ code: 'lang' }], 'Kommer ihåg om du har valt svenska eller engelska.', '1 år'],
              [
                'Inloggning med Google',
                'Kortlivade cookies som skyddar inloggningen med Google mot förfalskning (state och PKCE). Sätts bara när du väljer att logga in med Google.',
                'Några minuter; tas bort när inloggningen är klar',
              ],
            ],
          },
        },
        'Utöver cookierna sparar webbplatsen en enda notering i webbläsarens sessionslagring (sessionStorage): att rutan som bjuder in till inloggning redan har visats, så att den bara dyker upp en gång. Noteringen försvinner när du stänger webbläsaren och skickas aldrig till oss.',
        'Eftersom allt detta är nödvändigt för tjänster du själv efterfrågar behövs inget samtycke enligt lagen (2022:482) om elektronisk kommunikation. Du kan ta bort cookies i webbläsarens inställningar; då loggas du ut och språket återgår till svenska.',
      ],
    },
    {
      id: 'changes',
      title: 'Ändringar av policyn',
      blocks: [
        'Om vi ändrar hur vi behandlar personuppgifter uppdaterar vi den här sidan och datumet högst upp. Större ändringar meddelar vi på webbplatsen innan de börjar gälla.',
      ],
    },
  ],
};

const en: PolicyDocument = {
  title: 'Privacy policy',
  updatedLabel: 'Last updated',
  updated: '2 June 2024',
  isoDate: '2024-06-02',
  tocLabel: 'Contents',
  intro: [
    'This policy explains which personal data Recensera processes, why, for how long, and the rights you have under the General Data Protection Regulation (GDPR). We collect only what the site needs to work. We show no advertising, sell no data and do not track you.',
  ],
  sections: [
    {
      id: 'controller',
      title: 'Who is responsible for your data',
      blocks: [
        'Recensera is a community-run website. The association, group or person running this particular site (“we”) is the data controller for the data processed here.',
        [
          'If you have questions about how we handle your data, or want to exercise your rights, write to us through the ',
          { link: 'contact form', href: '/contact' },
          '.',
        ],
      ],
    },
    {
      id: 'data',
      title: 'What data we process',
      blocks: [
        {
          list: [
            [
              { strong: 'Account: ' },
              'first name, last name, e-mail address, profile picture, chosen language, and whether the account is confirmed, an administrator or banned. Your password is never stored in plain text, only as a secure hash (argon2id). If you sign in with Google, we receive your name and e-mail address from Google, but no password.',
            ],
            [
              { strong: 'Content: ' },
              'comments, replies, pictures, star ratings, ratings of other people’s posts, favourites and the town or branch you name.',
            ],
            [{ strong: 'Contact messages: ' }, 'name, e-mail address, message and the language you used.'],
            [
              { strong: 'Technical data: ' },
              'login sessions (when they were created and when they expire) and your IP address, which is used to limit the number of attempts at login, registration and contact and may appear in the server’s logs.',
            ],
          ],
        },
        'Pictures you upload are re-encoded on the server and all embedded metadata is removed, such as the camera model and the GPS position a phone camera often records.',
      ],
    },
    {
      id: 'purposes',
      title: 'Why we process it and on what legal basis',
      blocks: [
        {
          list: [
            [
              { strong: 'Giving you an account and publishing what you write' },
              ' – to perform our agreement with you when you accept the terms of use (Article 6(1)(b) GDPR).',
            ],
            [
              { strong: 'Sending e-mail about your account' },
              ', such as confirming your e-mail address and resetting your password – also to perform the agreement. We send no newsletters or marketing.',
            ],
            [
              { strong: 'Moderating content, preventing abuse and protecting the site' },
              ' – our legitimate interest in a safe and trustworthy service (Article 6(1)(f)).',
            ],
            [{ strong: 'Answering contact messages' }, ' – our legitimate interest in being able to reply to you (Article 6(1)(f)).'],
            [{ strong: 'Meeting legal obligations' }, ', for example when an authority is entitled to request data (Article 6(1)(c)).'],
          ],
        },
        'We make no automated decisions about you and do no profiling.',
      ],
    },
    {
      id: 'sharing',
      title: 'Who can see your data',
      blocks: [
        'What you publish is public: your name, your profile picture and your comments, replies, pictures and ratings are visible to everyone who visits the site, even without an account. Your e-mail address and your favourites are not shown to other users.',
        'The site’s administrators see users’ names, e-mail addresses and roles, and can remove content and accounts when moderating.',
        'We never sell data. We share it only with providers that help us run the site and may use it for nothing else: whoever provides the server, and the e-mail service that sends our mail. If you choose to sign in with Google, we exchange data with Google for the sign-in. Data is also disclosed when the law requires it.',
      ],
    },
    {
      id: 'retention',
      title: 'How long we keep it',
      blocks: [
        {
          list: [
            'Your account and content are kept until you delete your account or an administrator removes it. The account is then deleted together with your comments, replies, ratings, favourites and pictures, all at once.',
            'A login session lasts 30 days and is extended while you use the site. It is removed when you log out or it expires.',
            'A link to confirm your e-mail address is valid for 24 hours, and a link to reset your password for 1 hour.',
            'Contact messages are kept for as long as we need them to handle your request.',
            'Counters of attempts per IP address exist only in the server’s memory and disappear after one minute.',
          ],
        },
      ],
    },
    {
      id: 'security',
      title: 'How we protect it',
      blocks: [
        'Passwords are stored as argon2id hashes and login keys only as hashes, so a copy of the database is not enough to log in as someone else. The login cookie cannot be read by scripts on the page, requests that change anything must come from the site itself, and login attempts are limited. Only administrators can see other users’ e-mail addresses.',
      ],
    },
    {
      id: 'location',
      title: 'Where your data is kept',
      blocks: [
        'The data is stored in a database on the server that runs this site; it is not sent to any analytics or cloud service. If you sign in with Google, Google LLC processes data about the sign-in under Google’s own privacy policy; Google LLC participates in the EU–US Data Privacy Framework.',
      ],
    },
    {
      id: 'rights',
      title: 'Your rights',
      blocks: [
        'Under the GDPR you have the following rights. Most of them you can use yourself, directly on the site; otherwise write to us and we will answer within one month.',
        {
          list: [
            [
              { strong: 'Right of access: ' },
              'find out which data we hold about you. The ',
              { strong: 'Download my data' },
              ' button on your ',
              { link: 'profile page', href: '/user' },
              ' gives you a file with everything we have stored about you.',
            ],
            [
              { strong: 'Right to rectification: ' },
              'change your name, profile picture and language under Edit on your profile page, or ask us to correct anything else that is wrong.',
            ],
            [
              { strong: 'Right to erasure: ' },
              'delete your account with the ',
              { strong: 'Delete Account' },
              ' button on your profile page. The account and everything you have published are deleted immediately.',
            ],
            [
              { strong: 'Right to restriction: ' },
              'ask us to only store your data for the time being, for example while we check whether something is incorrect.',
            ],
            [
              { strong: 'Right to data portability: ' },
              'the file from Download my data is in the machine-readable JSON format, so you can take your data to another service.',
            ],
            [
              { strong: 'Right to object: ' },
              'object to processing we base on legitimate interest. We then stop unless we have compelling grounds to continue.',
            ],
            [
              { strong: 'Right to complain: ' },
              'lodge a complaint with ',
              { strong: 'Integritetsskyddsmyndigheten (IMY)' },
              ', the Swedish Authority for Privacy Protection: ',
              { link: 'www.imy.se', href: 'https://www.imy.se' },
              '.',
            ],
          ],
        },
      ],
    },
    {
      id: 'cookies',
      title: 'Cookies',
      blocks: [
        'Recensera uses only the cookies the site needs to work. We use no cookies for tracking, statistics or advertising, and no third-party cookies.',
        {
          table: {
            caption: 'The cookies the site sets',
            head: ['Cookie', 'What it does', 'How long'],
            rows: [
              [
                [{ code: 'session' }],
                'Keeps you logged in. It is HttpOnly, so scripts on the page cannot read it.',
                '30 days, extended while you use the site; removed when you log out',
              ],
              [[{ code: 'lang' }], 'Remembers whether you chose Swedish or English.', '1 year'],
              [
                'Google sign-in',
                'Short-lived cookies that protect signing in with Google against forgery (state and PKCE). Set only when you choose to sign in with Google.',
                'A few minutes; removed when the sign-in is complete',
              ],
            ],
          },
        },
        'Besides these cookies, the site keeps a single note in your browser’s session storage (sessionStorage): that the box inviting you to log in has already been shown, so that it appears only once. The note disappears when you close the browser and is never sent to us.',
        'Because all of this is necessary for services you ask for yourself, no consent is needed under the Swedish Electronic Communications Act (2022:482). You can delete cookies in your browser’s settings; you will then be logged out and the language goes back to Swedish.',
      ],
    },
    {
      id: 'changes',
      title: 'Changes to this policy',
      blocks: [
        'If we change how we process personal data, we update this page and the date at the top. We announce larger changes on the site before they take effect.',
      ],
    },
  ],
};

export const policy: Record<Language, PolicyDocument> = { sv, en };
