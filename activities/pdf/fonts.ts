import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { escapeHtml } from '../../lib/html.js';
import { toolsCacheDir } from '../../lib/config.js';

/**
 * The typefaces of letters and proofs, shipped as npm packages with their SIL OFL licence (TTF files):
 * Tinos and Arimo are the designs of Liberation Serif and Liberation Sans, metric-compatible with
 * Times New Roman and Arial. The system's Liberation fonts, if any, stand in second.
 */
export const FONT_STACKS = {
  serif: "Tinos, 'Liberation Serif', serif",
  sans: "Arimo, 'Liberation Sans', sans-serif",
};

const FONT_PACKAGES = ['@expo-google-fonts/tinos', '@expo-google-fonts/arimo'];

/**
 * A fontconfig file that adds the packaged fonts to the system's (when there is a system
 * configuration). The browser is started with FONTCONFIG_FILE pointing at it, so fonts are found
 * like installed ones: loaded once per browser, not decoded again for every letter as web fonts
 * would be. Written once per set of font folders, into the tools cache.
 */
export function fontconfigFile(): string {
  const require = createRequire(import.meta.url);
  const dirs = FONT_PACKAGES.map((name) => dirname(require.resolve(`${name}/package.json`)));
  const folder = join(toolsCacheDir(), 'fontconfig-' + createHash('sha256').update(dirs.join('\n')).digest('hex').slice(0, 12));
  const file = join(folder, 'fonts.conf');
  if (existsSync(file)) return file;
  mkdirSync(folder, { recursive: true });
  const xml = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
${dirs.map((dir) => `  <dir>${escapeHtml(dir)}</dir>`).join('\n')}
  <cachedir>${escapeHtml(join(folder, 'cache'))}</cachedir>
</fontconfig>
`;
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, xml);
  renameSync(partial, file);
  return file;
}
