import type { Language } from '../i18n';
import type { LegalDocument } from './types';

type TermsSections = readonly ['service', 'accounts', 'content', 'acceptable', 'reviews', 'moderation', 'removal', 'liability', 'changes', 'law'];

export type TermsDocument = LegalDocument<TermsSections>;

const sv: TermsDocument = {
  title: 'Användarvillkor',
  updatedLabel: 'Gäller från',
  updated: '2 juni 2024',
  isoDate: '2024-06-02',
  tocLabel: 'Innehåll',
  intro: [
    'De här villkoren gäller när du använder Recensera. Genom att skapa ett konto eller publicera något godkänner du dem. De är skrivna för att vara lätta att förstå – läs dem gärna i sin helhet.',
  ],
  sections: [
    {
      id: 'service',
      title: 'Om tjänsten',
      blocks: [
        'Recensera är en gemenskapsdriven webbplats där människor delar erfarenheter av vardagliga företag i Sverige – mataffärer, apotek, caféer, järnhandlar och liknande. Webbplatsen drivs av den förening, grupp eller person som står bakom just den här installationen (”vi”).',
        'Alla kan läsa omdömen utan konto. För att betygsätta, kommentera, svara och spara favoriter behöver du ett konto.',
      ],
    },
    {
      id: 'accounts',
      title: 'Ditt konto',
      blocks: [
        {
          list: [
            'Du ska ange ditt riktiga namn och en e-postadress som du har tillgång till. Kontot aktiveras när du har bekräftat e-postadressen.',
            'Kontot är personligt. Håll ditt lösenord hemligt och kontakta oss om du tror att någon annan har kommit åt kontot.',
            'Du ansvarar för det som publiceras från ditt konto.',
            'Du kan när som helst radera ditt konto på profilsidan. Då raderas också allt du har publicerat.',
          ],
        },
      ],
    },
    {
      id: 'content',
      title: 'Det du publicerar',
      blocks: [
        'Du behåller rätten till dina texter och bilder. Genom att publicera dem ger du oss rätt att lagra, visa och anpassa dem på webbplatsen (till exempel förminska bilder) så länge de ligger kvar.',
        'Publicera bara bilder som du själv har tagit eller har rätt att använda, och tänk på att personer som syns på bilder kan ha rätt att slippa det.',
      ],
    },
    {
      id: 'acceptable',
      title: 'Tillåtet och otillåtet innehåll',
      blocks: [
        'Skriv sakligt och respektfullt, även när du är missnöjd. Det är inte tillåtet att publicera innehåll som:',
        {
          list: [
            'är olagligt, till exempel förtal, hets mot folkgrupp, olaga hot eller intrång i upphovsrätt;',
            'trakasserar, hotar eller hänger ut personer – nämn inte anställda med namn och publicera inte andras personuppgifter;',
            'är rasistiskt, sexistiskt eller på annat sätt kränkande;',
            'är reklam, spam eller länkar till skadlig kod;',
            'är falskt eller vilseledande, eller utger sig för att komma från någon annan.',
          ],
        },
      ],
    },
    {
      id: 'reviews',
      title: 'Betyg och omdömen',
      blocks: [
        'Ett omdöme ska bygga på din egen, verkliga erfarenhet av företaget. Du får inte betygsätta ett företag som du äger, arbetar för eller konkurrerar med, och du får inte ta emot betalning eller förmåner för ett omdöme. Varje person har ett konto och ett betyg per företag.',
        'Företagens namn, bilder och ikoner visas bara för att de ska gå att känna igen. Recensera har inget samarbete med företagen om inget annat anges.',
      ],
    },
    {
      id: 'moderation',
      title: 'Moderering',
      blocks: [
        'Webbplatsens administratörer modererar innehållet. De kan ta bort kommentarer, svar och bilder som bryter mot villkoren, och lägga till, ändra eller ta bort företag i katalogen. Vi granskar inte allt innan det publiceras, så hjälp oss gärna: ser du något som bryter mot villkoren kan du tipsa oss via kontaktformuläret.',
      ],
    },
    {
      id: 'removal',
      title: 'Borttagning och avstängning',
      blocks: [
        'Innehåll som bryter mot villkoren kan tas bort utan förvarning. Vid upprepade eller allvarliga överträdelser kan administratörerna stänga av kontot – ett avstängt konto kan inte längre publicera eller betygsätta, men du kan fortfarande ladda ner dina uppgifter och radera kontot – eller radera kontot helt.',
        'Tycker du att något har tagits bort eller att ett konto har stängts av felaktigt kan du kontakta oss, så tittar vi på det igen.',
      ],
    },
    {
      id: 'liability',
      title: 'Ansvar',
      blocks: [
        'Omdömena är användarnas egna åsikter och inte våra. Vi kan inte garantera att de är korrekta, fullständiga eller aktuella, och vi ansvarar inte för beslut du fattar utifrån dem.',
        'Vi gör vårt bästa för att webbplatsen ska fungera, men den tillhandahålls i befintligt skick och kan ibland vara otillgänglig. Vi ansvarar inte för indirekta skador eller förlust av innehåll, utom i den mån det följer av tvingande lag.',
      ],
    },
    {
      id: 'changes',
      title: 'Ändringar av villkoren',
      blocks: [
        'Vi kan uppdatera villkoren, till exempel när webbplatsen får nya funktioner. Datumet högst upp visar när de senast ändrades, och större ändringar meddelar vi på webbplatsen innan de börjar gälla. Fortsätter du använda Recensera efter en ändring gäller de nya villkoren.',
      ],
    },
    {
      id: 'law',
      title: 'Tillämplig lag',
      blocks: [
        'Svensk lag gäller för de här villkoren och för din användning av Recensera. Tvister som vi inte kan lösa i samförstånd avgörs av svensk allmän domstol.',
        [
          'Frågor om villkoren är välkomna via ',
          { link: 'kontaktformuläret', href: '/contact' },
          '. Hur vi hanterar personuppgifter beskrivs i ',
          { link: 'integritetspolicyn', href: '/policy' },
          '.',
        ],
      ],
    },
  ],
};

const en: TermsDocument = {
  title: 'Terms of use',
  updatedLabel: 'In effect from',
  updated: '2 June 2024',
  isoDate: '2024-06-02',
  tocLabel: 'Contents',
  intro: [
    'These terms apply when you use Recensera. By creating an account or publishing anything you accept them. They are written to be easy to understand – please read them in full.',
  ],
  sections: [
    {
      id: 'service',
      title: 'About the service',
      blocks: [
        'Recensera is a community-run website where people share their experiences of everyday businesses in Sweden – grocery stores, pharmacies, cafés, hardware stores and the like. The site is run by the association, group or person behind this particular installation (“we”).',
        'Anyone can read reviews without an account. To rate, comment, reply and keep favourites you need an account.',
      ],
    },
    {
      id: 'accounts',
      title: 'Your account',
      blocks: [
        {
          list: [
            'Give your real name and an e-mail address you have access to. The account becomes active once you have confirmed the e-mail address.',
            'Your account is personal. Keep your password secret and contact us if you think someone else has gained access to it.',
            'You are responsible for what is published from your account.',
            'You can delete your account at any time on your profile page. Everything you have published is deleted with it.',
          ],
        },
      ],
    },
    {
      id: 'content',
      title: 'What you post',
      blocks: [
        'You keep the rights to your texts and pictures. By publishing them you allow us to store, show and adapt them on the site (for example by scaling pictures down) for as long as they remain there.',
        'Only publish pictures you have taken yourself or have the right to use, and remember that people who appear in pictures may have the right not to.',
      ],
    },
    {
      id: 'acceptable',
      title: 'Acceptable content',
      blocks: [
        'Write factually and respectfully, even when you are dissatisfied. You may not publish content that:',
        {
          list: [
            'is illegal, such as defamation, incitement against ethnic groups, unlawful threats or copyright infringement;',
            'harasses, threatens or exposes people – do not name employees and do not publish other people’s personal data;',
            'is racist, sexist or otherwise offensive;',
            'is advertising, spam or links to malicious code;',
            'is false or misleading, or pretends to come from someone else.',
          ],
        },
      ],
    },
    {
      id: 'reviews',
      title: 'Ratings and reviews',
      blocks: [
        'A review must be based on your own, real experience of the business. You may not rate a business you own, work for or compete with, and you may not accept payment or benefits for a review. Each person has one account and one rating per business.',
        'Business names, pictures and icons are shown only so that the businesses can be recognised. Recensera has no partnership with the businesses unless stated otherwise.',
      ],
    },
    {
      id: 'moderation',
      title: 'Moderation',
      blocks: [
        'The site’s administrators moderate the content. They can remove comments, replies and pictures that break these terms, and add, change or remove businesses in the directory. We do not review everything before it is published, so please help us: if you see something that breaks the terms, let us know through the contact form.',
      ],
    },
    {
      id: 'removal',
      title: 'Removal and suspension',
      blocks: [
        'Content that breaks these terms may be removed without notice. For repeated or serious violations the administrators may ban the account – a banned account can no longer publish or rate, but you can still download your data and delete the account – or delete the account entirely.',
        'If you think something was removed or an account was banned by mistake, contact us and we will look at it again.',
      ],
    },
    {
      id: 'liability',
      title: 'Liability',
      blocks: [
        'Reviews are the users’ own opinions, not ours. We cannot guarantee that they are correct, complete or up to date, and we are not responsible for decisions you make based on them.',
        'We do our best to keep the site working, but it is provided as is and may sometimes be unavailable. We are not liable for indirect damage or loss of content, except as required by mandatory law.',
      ],
    },
    {
      id: 'changes',
      title: 'Changes to these terms',
      blocks: [
        'We may update these terms, for example when the site gets new features. The date at the top shows when they last changed, and we announce larger changes on the site before they take effect. If you keep using Recensera after a change, the new terms apply.',
      ],
    },
    {
      id: 'law',
      title: 'Governing law',
      blocks: [
        'Swedish law applies to these terms and to your use of Recensera. Disputes we cannot settle amicably are decided by the Swedish general courts.',
        [
          'Questions about the terms are welcome through the ',
          { link: 'contact form', href: '/contact' },
          '. How we handle personal data is described in the ',
          { link: 'privacy policy', href: '/policy' },
          '.',
        ],
      ],
    },
  ],
};

export const terms: Record<Language, TermsDocument> = { sv, en };
