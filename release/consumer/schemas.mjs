// The published JSON Schemas, found in the installed @verdict/compiler as an editor or a tool finds
// them: through the package's exports, by `import` and by `require.resolve`, nothing fetched.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import policyFile from '@verdict/compiler/schemas/policy-file.schema.json' with { type: 'json' };

const require = createRequire(import.meta.url);
// ajv and yaml as the compiler has them (its own dependencies), not as this project might.
const fromCompiler = createRequire(require.resolve('@verdict/compiler/package.json'));
const { Ajv } = fromCompiler('ajv');
const { parse } = fromCompiler('yaml');

const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true });
const paths = ['approver', 'descriptor', 'policy', 'policy-file', 'tests'].map((name) => require.resolve(`@verdict/compiler/schemas/${name}.schema.json`));
for (const path of paths) ajv.addSchema(JSON.parse(readFileSync(path, 'utf8')));
const validate = ajv.getSchema(policyFile.$id);
console.log(
  JSON.stringify({
    paths,
    policy: validate(parse(readFileSync('policy.yaml', 'utf8'))),
    typo: validate({ mode: 'patern', policy: { sandbox: 'Read_only' } }),
  }),
);
