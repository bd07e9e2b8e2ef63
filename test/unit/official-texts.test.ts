import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadCatalogueData, sourceVerified, type CatalogueData, type LegalSource } from '../../domain/catalogue/catalogue.js';

/**
 * Sources read at the source (issue 51): every source of the catalogue that cites one of the codes
 * DILA's LEGI data package ships (@socialgouv/legi-data, pinned in package.json) names the version
 * of the article it relies on (`legiarti`) and the phrase it relies on (`quote`). The test reads the
 * package's JSON (one file per code, read once; not the package's code), finds the article by its
 * id, and checks that it is in force, that it is the article cited, and that it still says the
 * phrase. A new release of the data that amends or repeals a cited article makes it fail: the
 * signal to read the article again, and to bump the package on purpose.
 */

/** The codes the package ships, by the name the catalogue gives them in `text`. */
const CODES: Record<string, string> = {
  'Code du travail': 'LEGITEXT000006072050',
  'Code de la sécurité sociale': 'LEGITEXT000006073189',
  "Code des relations entre le public et l'administration": 'LEGITEXT000031366350',
  'Code rural et de la pêche maritime': 'LEGITEXT000022197698',
};

interface LegiArticle {
  id: string;
  num: string;
  etat: string;
  texte: string;
  dateDebut: number;
  dateFin: number;
  articleVersions: { id: string; etat: string; dateDebut: number }[];
}
interface LegiNode {
  type: 'code' | 'section' | 'article';
  data: { title?: string; dateModif?: string } & Partial<LegiArticle>;
  children?: LegiNode[];
}
/** One code of the LEGI data: its title, the date of its data, its articles (the version current at that date) by id. */
export interface LegiCode {
  title: string;
  dateModif: string;
  byId: Map<string, LegiArticle>;
}

const dataDir = join(dirname(createRequire(import.meta.url).resolve('@socialgouv/legi-data/package.json')), 'data');

function loadCode(legitext: string): LegiCode {
  const tree = JSON.parse(readFileSync(join(dataDir, `${legitext}.json`), 'utf8')) as LegiNode;
  const byId = new Map<string, LegiArticle>();
  const walk = (node: LegiNode): void => {
    if (node.type === 'article') {
      const { id, num, etat, texte, dateDebut, dateFin, articleVersions } = node.data as LegiArticle;
      byId.set(id, { id, num, etat, texte, dateDebut, dateFin, articleVersions: articleVersions ?? [] });
    } else node.children?.forEach(walk);
  };
  walk(tree);
  return { title: tree.data.title!, dateModif: tree.data.dateModif!, byId };
}

/** Text compared as read: spacing (runs of spaces, non-breaking spaces, the space the data leaves before a comma), apostrophes and quotes aside. */
export function plain(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u00a0\u202f\u2007]/g, ' ')
    .replace(/[\u2018\u2019\u02bc\u2032]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.])/g, '$1')
    .trim();
}

/**
 * Whether the article numbered `num` in the data is the one, or one of those, the source cites
 * ("L1225-47", "R*311-12", "L211-2 et L211-5", "L1237-11 à L1237-16").
 */
export function citesNumber(article: string, num: string): boolean {
  const numbers: string[] = article.match(/[LRDA]\*?\d+(?:-\d+)*/g) ?? [];
  if (numbers.includes(num)) return true;
  const range = /^([LRDA]\*?)([\d-]+) à ([LRDA]\*?)([\d-]+)$/.exec(article.trim());
  const parts = /^([LRDA]\*?)([\d-]+)$/.exec(num);
  if (!range || !parts || range[1] !== parts[1] || range[3] !== parts[1]) return false;
  const key = (n: string) => n.split('-').map(Number);
  const [from, to, at] = [key(range[2]!), key(range[4]!), key(parts[2]!)];
  if (from.length !== at.length || to.length !== at.length || at.slice(0, -1).join('-') !== from.slice(0, -1).join('-')) return false;
  return at.at(-1)! >= from.at(-1)! && at.at(-1)! <= to.at(-1)!;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const codeOf = (source: LegalSource): string | undefined => CODES[source.text];

/** Every source of the catalogue that cites one of the shipped codes, with where it is. */
function codeSources(data: CatalogueData): { where: string; source: LegalSource; legitext: string }[] {
  const entries: [string, { slug: string; sources: LegalSource[] }][] = [
    ...data.letters.map((l) => ['letter', l] as [string, typeof l]),
    ...data.calculators.map((c) => ['calculator', c] as [string, typeof c]),
    ...data.aiTools.map((t) => ['AI tool', t] as [string, typeof t]),
    ...data.quotes.map((q) => ['quote', q] as [string, typeof q]),
  ];
  return entries.flatMap(([kind, entry]) =>
    entry.sources.flatMap((source) => {
      const legitext = codeOf(source);
      return legitext ? [{ where: `${kind} ${entry.slug}, source ${source.text} ${source.article}`, source, legitext }] : [];
    }),
  );
}

/** What the LEGI data contradicts in the catalogue's sources of the shipped codes (an empty list when nothing). */
export function officialTextProblems(data: CatalogueData, codes: Map<string, LegiCode>, now = Date.now()): string[] {
  const problems: string[] = [];
  for (const { where, source, legitext } of codeSources(data)) {
    const code = codes.get(legitext)!;
    if (!source.legiarti || !source.quote) {
      problems.push(`${where}: no legiarti and quote (the article's id and the phrase relied on, read in the LEGI data)`);
      continue;
    }
    const linked = /\/article_lc\/(LEGIARTI\d{12})/.exec(source.url)?.[1];
    if (linked && linked !== source.legiarti) problems.push(`${where}: its address names ${linked}, not its legiarti ${source.legiarti}`);
    const article = code.byId.get(source.legiarti);
    if (!article) {
      problems.push(`${where}: ${source.legiarti} is no article of the ${code.title} in the LEGI data (version of ${code.dateModif})`);
      continue;
    }
    if (!citesNumber(source.article, article.num)) problems.push(`${where}: ${source.legiarti} is article ${article.num}, not ${source.article}`);
    if (article.etat !== 'VIGUEUR')
      problems.push(`${where}: article ${article.num} (${source.legiarti}) is no longer in force (${article.etat}, until ${day(article.dateFin)})`);
    else if (article.dateFin <= now) problems.push(`${where}: article ${article.num} (${source.legiarti}) was in force until ${day(article.dateFin)} only`);
    const next = article.articleVersions.find((v) => v.id !== article.id && v.dateDebut > article.dateDebut && v.dateDebut <= now);
    if (next) problems.push(`${where}: article ${article.num} has a newer version, ${next.id}, since ${day(next.dateDebut)}: read it`);
    if (!plain(article.texte).includes(plain(source.quote)))
      problems.push(`${where}: article ${article.num} (${source.legiarti}) no longer says « ${source.quote} »`);
  }
  return problems;
}

describe('sources read at the source: the LEGI data (issue 51)', function () {
  // Reading a code is ≈0.6 s and ≈250 MB: each is read once, here, for all the tests.
  this.timeout(60_000);
  const data = loadCatalogueData();
  const codes = new Map<string, LegiCode>();
  before(() => {
    for (const legitext of new Set(codeSources(data).map((s) => s.legitext))) codes.set(legitext, loadCode(legitext));
  });
  // The rest of the unit run does not need the codes' hundreds of megabytes.
  after(() => codes.clear());

  it('every source citing the Code du travail, the CSS, the CRPA or the Code rural names its article in force and the phrase the letter relies on', () => {
    const sources = codeSources(data);
    expect(sources.length).to.be.greaterThan(30);
    expect(officialTextProblems(data, codes)).to.deep.equal([]);
    // What the data backs is marked verified: an article-level address and the day it was read there.
    for (const { where, source } of sources.filter((s) => sourceVerified(s.source))) {
      expect(source.url, where).to.equal(`https://www.legifrance.gouv.fr/codes/article_lc/${source.legiarti}`);
      expect(source.note, where).to.match(/^Lu le \d{4}-\d{2}-\d{2} dans les données LEGI de la DILA \(paquet @socialgouv\/legi-data 2\.513\.0, /);
    }
  });

  it('the data read is the pinned release, and says the date of each code', () => {
    const pkg = JSON.parse(readFileSync(join(dataDir, '..', 'package.json'), 'utf8')) as { version: string };
    expect(pkg.version).to.equal('2.513.0');
    expect(Object.fromEntries([...codes].map(([id, code]) => [id, code.dateModif]))).to.deep.equal({
      LEGITEXT000006072050: '2026-03-27',
      LEGITEXT000006073189: '2026-03-14',
      LEGITEXT000031366350: '2026-02-05',
    });
  });

  it('reports, naming the letter and the source, a wrong id, an article no longer in force, a phrase gone, a missing id', () => {
    const copy = structuredClone(data);
    const letter = (slug: string) => copy.letters.find((l) => l.slug === slug)!;
    const overtime = letter('reclamation-heures-supplementaires').sources.find((s) => s.article === 'L3121-36')!;
    // The address the catalogue had: an old version of L3121-37, not in the data's tree.
    overtime.url = 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000033020337';
    overtime.legiarti = 'LEGIARTI000033020337';
    // Another article's id: L3121-28's.
    const prescription = letter('reclamation-heures-supplementaires').sources.find((s) => s.article === 'L3245-1')!;
    prescription.legiarti = 'LEGIARTI000033020373';
    prescription.url = 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000033020373';
    // An article whose version in the data ended on 2026-11-01 (CSS L142-1, ABROGE_DIFF).
    const appeal = letter('recours-amiable-securite-sociale').sources[0]!;
    Object.assign(appeal, {
      article: 'L142-1',
      legiarti: 'LEGIARTI000042683979',
      quote: 'Le contentieux de la sécurité sociale comprend les litiges relatifs',
    });
    appeal.url = 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000042683979';
    // A phrase the article does not say (the wording of L1225-47 before 2023).
    letter('demande-conge-parental').sources.find((s) => s.article === 'L1225-47')!.quote =
      "justifiant d'une année d'ancienneté à la date de naissance de son enfant";
    // No id at all.
    delete letter('lettre-demission').sources.find((s) => s.article === 'L1237-1')!.legiarti;

    const where = (slug: string, source: string) => `letter ${slug}, source ${source}`;
    expect(officialTextProblems(copy, codes, Date.parse('2026-11-29T12:00:00Z'))).to.deep.equal([
      `${where('recours-amiable-securite-sociale', 'Code de la sécurité sociale L142-1')}: article L142-1 (LEGIARTI000042683979) is no longer in force (ABROGE_DIFF, until 2026-11-01)`,
      `${where('recours-amiable-securite-sociale', 'Code de la sécurité sociale L142-1')}: article L142-1 has a newer version, LEGIARTI000051288452, since 2026-11-01: read it`,
      `${where('lettre-demission', 'Code du travail L1237-1')}: no legiarti and quote (the article's id and the phrase relied on, read in the LEGI data)`,
      `${where('demande-conge-parental', 'Code du travail L1225-47')}: article L1225-47 (LEGIARTI000047293352) no longer says « justifiant d'une année d'ancienneté à la date de naissance de son enfant »`,
      `${where('reclamation-heures-supplementaires', 'Code du travail L3121-36')}: LEGIARTI000033020337 is no article of the Code du travail in the LEGI data (version of 2026-03-27)`,
      `${where('reclamation-heures-supplementaires', 'Code du travail L3245-1')}: LEGIARTI000033020373 is article L3121-28, not L3245-1`,
      `${where('reclamation-heures-supplementaires', 'Code du travail L3245-1')}: article L3121-28 (LEGIARTI000033020373) no longer says « L'action en paiement ou en répétition du salaire se prescrit par trois ans »`,
    ]);
    // An address that does not name the source's id is reported too.
    overtime.legiarti = 'LEGIARTI000033020341';
    expect(officialTextProblems(copy, codes).filter((p) => p.includes('L3121-36'))).to.deep.equal([
      `${where('reclamation-heures-supplementaires', 'Code du travail L3121-36')}: its address names LEGIARTI000033020337, not its legiarti LEGIARTI000033020341`,
    ]);
  });

  it('compares text as read: spacing, non-breaking spaces and apostrophes aside; article numbers, ranges and lists', () => {
    expect(plain('l\u2019article L. 311-1 ,\u00a0vaut   décision')).to.equal("l'article L. 311-1, vaut décision");
    expect(citesNumber('R*311-12', 'R*311-12')).to.equal(true);
    expect(citesNumber('R311-12', 'R*311-12')).to.equal(false);
    expect(citesNumber('L211-2 et L211-5', 'L211-5')).to.equal(true);
    expect(citesNumber('L1237-11 à L1237-16', 'L1237-13')).to.equal(true);
    expect(citesNumber('L1237-11 à L1237-16', 'L1237-17')).to.equal(false);
    expect(citesNumber('L1225-46-2 à L1225-46-7', 'L1225-46-5')).to.equal(true);
    expect(citesNumber('L1225-46-2 à L1225-46-7', 'L1225-47')).to.equal(false);
    expect(citesNumber('L3121-36', 'L3121-37')).to.equal(false);
  });
});
