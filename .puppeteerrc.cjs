// Puppeteer's own Chrome download cannot work on machines without internet; where Debian's
// chromium (or PUPPETEER_EXECUTABLE_PATH) is present the download is skipped and that browser is
// used. On a machine with internet and no system browser, puppeteer downloads its own as usual.
const { existsSync } = require('node:fs');

module.exports = {
  skipDownload: Boolean(process.env.PUPPETEER_EXECUTABLE_PATH) || existsSync('/usr/bin/chromium'),
};
