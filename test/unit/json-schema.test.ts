import { expect } from 'chai';
import Joi from 'joi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { joiToOpenApiSchema, nameOpenEnums, type JsonSchema } from '../../lib/json-schema.js';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const PREFS: Joi.ValidationOptions = { abortEarly: false, convert: true, allowUnknown: false };

/** The document's schema of `schema`, components resolved inline (none are labelled here). */
function documented(schema: Joi.Schema): JsonSchema {
  return joiToOpenApiSchema(schema, { components: {} });
}

/**
 * The contract's one direction: every sample the document allows, Joi accepts. Returns the
 * samples the document allows, so that a test also shows it refuses what it should.
 */
function allowedBy(schema: Joi.Schema, samples: unknown[]): unknown[] {
  const validate = ajv.compile(documented(schema));
  const allowed = samples.filter((s) => validate(s));
  for (const sample of allowed) {
    const { error } = schema.validate(sample, PREFS);
    expect(error?.message, `the document allows ${JSON.stringify(sample)}, Joi refuses it`).to.equal(undefined);
  }
  return allowed;
}

describe('Joi → JSON Schema for the published contract', () => {
  it('a Joi string refuses "": minLength 1, unless allow("")', () => {
    expect(documented(Joi.string().max(5))).to.include({ minLength: 1, maxLength: 5 });
    expect(allowedBy(Joi.string().max(5), ['', 'a', 'abcde', 'abcdef'])).to.deep.equal(['a', 'abcde']);
    expect(allowedBy(Joi.string().allow('').max(5), ['', 'a'])).to.deep.equal(['', 'a']);
    expect(allowedBy(Joi.string().min(3).allow(''), ['', 'ab', 'abc'])).to.deep.equal(['', 'abc']);
  });

  it("trim(): the trimmed value must reach min, with JavaScript blanks (not Python's) around it", () => {
    const samples = ['', ' ', '  ab  ', 'ab', 'abc', '\u00a0abc\u00a0', '\ufeffab\ufeff', 'a  b', '\t\n a b \n', ' a ', 'x'.repeat(12)];
    expect(allowedBy(Joi.string().trim().min(3).max(12), samples)).to.deep.equal(['abc', '\u00a0abc\u00a0', 'a  b', '\t\n a b \n', 'x'.repeat(12)]);
    expect(allowedBy(Joi.string().trim().max(10), ['', '   ', ' a ', '\u3000'])).to.deep.equal([' a ']);
  });

  it('a bounded string is of the Basic Multilingual Plane: JSON Schema counts characters, Joi UTF-16 units', () => {
    const emoji = '\u{1F4EC}';
    expect(Joi.string().max(3).validate(emoji.repeat(2)).error).to.not.equal(undefined);
    expect(allowedBy(Joi.string().max(3), ['abc', 'éèà', emoji, emoji.repeat(2)])).to.deep.equal(['abc', 'éèà']);
    expect(allowedBy(Joi.string().trim().min(2).max(4), [` ${emoji}${emoji} `, ' ab ', ` a${emoji} `])).to.deep.equal([' ab ']);
  });

  it('\\d in a Joi pattern is spelled [0-9]: Python reads \\d as any Unicode digit', () => {
    const patterns = (schema: JsonSchema): unknown[] => ((schema.allOf ?? []) as JsonSchema[]).map((p) => p.pattern);
    expect(patterns(documented(Joi.string().pattern(/^\d{5}$/)))).to.include('^[0-9]{5}$');
    expect(patterns(documented(Joi.string().pattern(/^[\dAB]{2}$/)))).to.include('^[0-9AB]{2}$');
    expect(allowedBy(Joi.string().pattern(/^\d{5}$/), ['69123', '\u0666\u0669\u0661\u0662\u0663'])).to.deep.equal(['69123']);
  });

  it('numbers carry the safe-integer bounds Joi enforces, and integer', () => {
    expect(allowedBy(Joi.number().integer(), [1, 1.5, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER])).to.deep.equal([1, Number.MAX_SAFE_INTEGER]);
    expect(allowedBy(Joi.number().min(1).max(30), [0, 1, 30, 30.5, 12.25])).to.deep.equal([1, 30, 12.25]);
  });

  it('guid versions are a pattern, not just format uuid', () => {
    const schema = Joi.string().guid({ version: ['uuidv4', 'uuidv7'] });
    const v4 = '0b9e8a8e-6b53-4c1e-9a57-3f0f6c1d2a10';
    const v3 = '0b9e8a8e-6b53-3c1e-9a57-3f0f6c1d2a10';
    const nil = '00000000-0000-0000-0000-000000000000';
    expect(allowedBy(schema, [v4, v3, nil, v4.toUpperCase()])).to.deep.equal([v4, v4.toUpperCase()]);
  });

  it('objects refuse unknown keys; pattern keys become propertyNames and additionalProperties', () => {
    const fields = Joi.object()
      .pattern(Joi.string().max(3), Joi.alternatives(Joi.string().max(2), Joi.number()))
      .max(2);
    expect(allowedBy(fields, [{}, { a: 'xy' }, { a: 1, b: 'z' }, { abcd: 'x' }, { a: 'xyz' }, { a: 1, b: 2, c: 3 }, { a: '' }])).to.deep.equal([
      {},
      { a: 'xy' },
      { a: 1, b: 'z' },
    ]);
    expect(allowedBy(Joi.object({ a: Joi.string() }), [{ a: 'x' }, { b: 'x' }])).to.deep.equal([{ a: 'x' }]);
    expect(allowedBy(Joi.object({ a: Joi.string() }).unknown(true), [{ b: 'x' }])).to.deep.equal([{ b: 'x' }]);
  });

  it('and / or / oxor between keys are written as required combinations', () => {
    const query = Joi.object({ lat: Joi.number(), lon: Joi.number(), insee: Joi.string() }).and('lat', 'lon').or('lat', 'insee');
    const samples = [{}, { lat: 1 }, { lat: 1, lon: 2 }, { insee: 'x' }, { lon: 2, insee: 'x' }, { lat: 1, lon: 2, insee: 'x' }];
    expect(allowedBy(query, samples)).to.deep.equal([{ lat: 1, lon: 2 }, { insee: 'x' }, { lat: 1, lon: 2, insee: 'x' }]);
    const advance = Joi.object({ step: Joi.number(), status: Joi.string() }).oxor('step', 'status');
    expect(allowedBy(advance, [{}, { step: 1 }, { status: 'x' }, { step: 1, status: 'x' }])).to.deep.equal([{}, { step: 1 }, { status: 'x' }]);
  });

  it('valid() is an enum, allow(null) nullable, defaults are kept', () => {
    expect(allowedBy(Joi.string().valid('a', 'b').allow(null), ['a', 'c', null, ''])).to.deep.equal(['a', null]);
    expect(documented(Joi.string().valid('a', 'b').default('a'))).to.deep.include({ enum: ['a', 'b'], default: 'a' });
    expect(documented(Joi.number().allow(null))).to.deep.include({ type: ['number', 'null'] });
  });

  it('an answer documents its value lists open (a value added later is still a string), a request keeps them closed', () => {
    const status = Joi.string().valid('paid', 'posted');
    expect(documented(status)).to.deep.equal({ type: 'string', enum: ['paid', 'posted'] });
    const answer = joiToOpenApiSchema(status, { components: {}, loose: true });
    expect(answer).to.deep.equal({
      anyOf: [
        { type: 'string', enum: ['paid', 'posted'] },
        { type: 'string', description: 'A value added after this version of the document' },
      ],
    });
    // A single value (a constant) and non-string lists stay as they are.
    expect(joiToOpenApiSchema(Joi.string().valid('list'), { components: {}, loose: true })).to.deep.equal({ type: 'string', enum: ['list'] });
    expect(joiToOpenApiSchema(Joi.number().valid(1, 2), { components: {}, loose: true })).to.deep.equal({ type: 'integer', enum: [1, 2] });
  });

  it("names an answer's open enums after where they sit, so generators name them (LegalSourceStatus, not LegalSourceStatusType0)", () => {
    const components: Record<string, JsonSchema> = {};
    const source = Joi.object({
      status: Joi.string().valid('unverified', 'read_on_copy'),
      events: Joi.array().items(Joi.string().valid('a', 'b')),
    }).label('LegalSource');
    joiToOpenApiSchema(source, { components, loose: true });
    nameOpenEnums(components);
    const open = { type: 'string', description: 'A value added after this version of the document' };
    expect(components.LegalSourceStatus).to.deep.equal({ type: 'string', enum: ['unverified', 'read_on_copy'] });
    expect(components.LegalSourceEventsItem).to.deep.equal({ type: 'string', enum: ['a', 'b'] });
    expect((components.LegalSource!.properties as Record<string, JsonSchema>).status).to.deep.equal({
      anyOf: [{ $ref: '#/components/schemas/LegalSourceStatus' }, open],
    });
  });

  it('a labelled schema is its component without null (the use allows null); a request differing from an answer of its label is <label>Input', () => {
    const components: Record<string, JsonSchema> = {};
    const letter = Joi.object({ title: Joi.string().required() }).label('FreeLetter');
    expect(joiToOpenApiSchema(Joi.object({ letter: letter.allow(null) }), { components, loose: true })).to.deep.include({
      properties: { letter: { anyOf: [{ $ref: '#/components/schemas/FreeLetter' }, { type: 'null' }] } },
    });
    expect(components.FreeLetter).to.include({ type: 'object' });
    // A request's strings refuse NUL: a schema of its own, named rather than inlined.
    expect(joiToOpenApiSchema(letter, { components })).to.deep.equal({ $ref: '#/components/schemas/FreeLetterInput' });
    expect(components.FreeLetterInput).to.not.deep.equal(components.FreeLetter);
  });

  it("an answer's condition whose other branch is forbidden documents the one value it can have", () => {
    const field = Joi.object({
      type: Joi.string(),
      options: Joi.when('type', { is: 'enum', then: Joi.array().items(Joi.string()).required(), otherwise: Joi.forbidden() }),
    });
    const options = (joiToOpenApiSchema(field, { components: {}, loose: true }).properties as Record<string, JsonSchema>).options!;
    expect(options).to.include({ type: 'array' }).and.not.have.property('anyOf');
  });

  it('a string of several patterns says its type in each part, for generators that read a part alone', () => {
    expect(documented(Joi.string().pattern(/^[0-9]{14}$/))).to.deep.include({
      type: 'string',
      allOf: [
        { type: 'string', pattern: '^[\\u0001-\\uffff]*$' },
        { type: 'string', pattern: '^[0-9]{14}$' },
      ],
    });
  });

  it('a request rule it cannot express is refused rather than documented loosely', () => {
    const custom = Joi.string().custom((v: string) => v);
    expect(() => documented(custom)).to.throw(/cannot be documented/);
    expect(() => joiToOpenApiSchema(custom, { components: {}, loose: true })).to.not.throw();
  });
});
