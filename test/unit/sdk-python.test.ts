import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiText, pythonGeneratorDocument } from '../../scripts/local/sdk-generation.js';
import { pythonSdkTools } from '../../scripts/local/python-sdk-venv.js';
import { projectRoot } from '../../lib/paths.js';

const SDK = join(projectRoot, 'sdk', 'python');

/** Runs `code` with the venv's Python and the SDK on the path; its stdout, parsed as JSON. */
function python(bin: string, code: string): any {
  const result = spawnSync(join(bin, 'python'), ['-c', code], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: SDK, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (result.status !== 0) throw new Error(`python exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** The first ```python block of a Markdown file. */
function pythonSnippet(markdown: string): string {
  const block = /```python\n([\s\S]*?)```/.exec(readFileSync(markdown, 'utf8'));
  if (!block) throw new Error(`${markdown} has no Python snippet`);
  return block[1]!;
}

describe('Python SDK (sdk/python), without a stack', function () {
  // The first run on a machine installs the pinned venv from PyPI.
  this.timeout(600_000);
  let bin: string;
  before(() => (bin = pythonSdkTools().bin));

  it("a request model refuses a key it does not know, naming the API's spelling, rather than dropping it", () => {
    const refused = python(
      bin,
      `
import json
from svc_postal import UnknownKeyError
from svc_postal.generated.models import MailingRequest
letter = {"title": "Demande", "body": "Madame, Monsieur,"}
address = {"name": "Marie Dupont", "lines": ["12 rue des Lilas"], "postcode": "69003", "city": "Lyon"}
base = {"mode": "simple", "letter": letter, "sender": address, "recipient": address}
out = []
for extra in ({"send_at": "2030-01-02T09:00:00Z"}, {"options": {"address_check": "off"}}, {"sendAtt": "2030-01-02"}):
    try:
        MailingRequest.from_dict({**base, **extra})
        out.append("accepted")
    except UnknownKeyError as error:
        out.append({"model": error.model, "key": error.key, "expected": error.expected, "message": str(error)})
print(json.dumps({"refused": out, "camelCase": MailingRequest.from_dict({**base, "sendAt": "2030-01-02T09:00:00Z"}).send_at}))
`,
    );
    expect(refused.refused).to.deep.equal([
      { model: 'MailingRequest', key: 'send_at', expected: 'sendAt', message: "MailingRequest has no key 'send_at': the API spells it 'sendAt'" },
      {
        model: 'MailingRequestOptions',
        key: 'address_check',
        expected: 'addressCheck',
        message: "MailingRequestOptions has no key 'address_check': the API spells it 'addressCheck'",
      },
      { model: 'MailingRequest', key: 'sendAtt', expected: null, message: "MailingRequest has no key 'sendAtt'" },
    ]);
    expect(refused.camelCase).to.equal('2030-01-02T09:00:00Z');
  });

  it('an answer model still parses an answer with a key added after it was generated', () => {
    const parsed = python(
      bin,
      `
import json
from svc_postal.generated.models import Error
error = Error.from_dict({"error": {"code": "not_found", "message": "No such mailing", "hint": "new"}, "later": 1})
print(json.dumps(error.error.code))
`,
    );
    expect(parsed).to.equal('not_found');
  });

  it("marks every object a request body reaches for the generator's strict from_dict, and no answer's", () => {
    const document = JSON.parse(pythonGeneratorDocument(openApiText())) as {
      paths: Record<string, Record<string, { responses?: unknown }>>;
      webhooks: unknown;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const schemas = document.components.schemas;
    const marked = Object.keys(schemas).filter((name) => schemas[name]!['x-refuse-unknown-keys']);
    expect(marked).to.include.members(['MailingRequest', 'MailingAddress', 'LetterRenderRequest', 'MailingBatchRequest']);
    // Every component an answer or a webhook reaches: what a later version adds to them must never break a client generated today.
    const answers = new Set<string>();
    const reach = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string') {
        const name = ref.replace('#/components/schemas/', '');
        if (answers.has(name)) return;
        answers.add(name);
        reach(schemas[name]);
      }
      Object.values(node).forEach(reach);
    };
    for (const operations of Object.values(document.paths)) for (const operation of Object.values(operations)) reach(operation.responses);
    reach(document.webhooks);
    expect(answers.size).to.be.above(30);
    expect(marked.filter((name) => answers.has(name))).to.deep.equal([]);
  });

  it("the READMEs' Python passes mypy --strict, the SDK's answers typed as what they are", () => {
    const scratch = mkdtempSync(join(tmpdir(), 'sdk-python-mypy-'));
    try {
      const files = [join(projectRoot, 'README.md'), join(SDK, 'README.md')].map((markdown, i) => {
        const file = join(scratch, `readme_${i}.py`);
        writeFileSync(file, pythonSnippet(markdown));
        return file;
      });
      // --follow-imports=silent: the SDK's own code is read for its types but not reported on, as
      // for an installed package (py.typed); the generated code is the generator's.
      const result = spawnSync(join(bin, 'mypy'), ['--strict', '--follow-imports=silent', '--cache-dir', join(scratch, 'cache'), ...files], {
        encoding: 'utf8',
        env: { ...process.env, MYPYPATH: SDK },
      });
      expect(result.stdout + result.stderr, 'mypy --strict').to.match(/^Success: no issues found in 2 source files/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
