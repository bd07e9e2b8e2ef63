/** Sample data shared by tests and benchmarks: real French addresses and letter values. */
export const sender = { name: 'Marie Dupont', lines: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon' };
export const recipient = { name: 'Mairie de Lyon', lines: ['1 place de la Comédie'], postcode: '69001', city: 'Lyon' };
export const freeLetter = { title: 'Demande de rendez-vous', body: 'Madame, Monsieur,\n\nJe souhaite un rendez-vous.\n\nCordialement.' };

/** Values of the catalogue letter resiliation-box-internet (provider bouygues-telecom). */
export const boxLetterValues = {
  senderName: 'Marie Dupont',
  senderAddress: '12 rue des Lilas\n69003 Lyon',
  subscriberId: 'FB-0987654321',
  installationAddress: '12 rue des Lilas, 69003 Lyon',
  terminationContext: 'sans-engagement',
  place: 'Lyon',
};
