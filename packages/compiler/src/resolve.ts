/**
 * Stage `resolve`: the driver. `CompileOptions.driver` (relative to the working directory) overrides
 * the file's `driver:` (relative to the policy file). A built-in name gives the built-in descriptor;
 * a path gives a descriptor file, validated with its JSON Schema.
 */
import { dirname, join } from 'node:path';
import { BUILTIN_DRIVER_NAMES, getBuiltinDescriptor } from '@verdict/engine';
import type { Diagnostic, Span } from '@verdict/engine';
import { loadDescriptorFile } from './descriptor.ts';
import { didYouMean } from './did-you-mean.ts';
import type { CompileState } from './types.ts';

function looksLikePath(ref: string): boolean {
  return /[\\/]/.test(ref) || /\.(?:json|ya?ml)$/i.test(ref) || ref.startsWith('.');
}

export function runResolve(state: CompileState): void {
  const fromOption = state.options.driver;
  const ref = fromOption ?? state.ir?.driver?.ref;
  if (ref === undefined) return;
  const span: Span | undefined = fromOption === undefined ? state.ir?.driver?.span : undefined;
  const at = (d: Diagnostic): Diagnostic => {
    if (span) d.span = span;
    d.path = ['driver'];
    return d;
  };

  const builtin = getBuiltinDescriptor(ref);
  if (builtin) {
    state.driverName = ref;
    state.descriptor = builtin;
    return;
  }
  const names = BUILTIN_DRIVER_NAMES.map((n) => `\`${n}\``).join(', ');
  if (!looksLikePath(ref)) {
    const s = didYouMean(ref, BUILTIN_DRIVER_NAMES);
    state.diagnostics.push(
      at({
        code: 'driver/unknown',
        severity: 'error',
        message: ref === '' ? 'the driver name is empty' : `unknown driver \`${ref}\``,
        help:
          (s !== undefined ? `did you mean \`${s}\`? ` : '') +
          `the built-in drivers are ${names}; a descriptor file is given by its path (\`./drivers/mine.yaml\`)`,
      }),
    );
    return;
  }
  const path = fromOption === undefined ? join(dirname(state.file), ref) : ref;
  const loaded = loadDescriptorFile(path);
  const loadFailure = loaded.diagnostics.find((d) => d.code.startsWith('load/'));
  if (loadFailure) {
    state.diagnostics.push(
      at({
        code: 'driver/unreadable',
        severity: 'error',
        message: `cannot load driver descriptor \`${ref}\`: ${loadFailure.message}`,
        help: fromOption === undefined ? 'a descriptor path is relative to the policy file' : 'check the path',
      }),
    );
    return;
  }
  for (const d of loaded.diagnostics) state.diagnostics.push(d);
  if (!loaded.descriptor) {
    if (span) {
      state.diagnostics.push(
        at({
          code: 'driver/invalid-descriptor',
          severity: 'error',
          message: `driver descriptor \`${ref}\` is invalid`,
          help: 'see the diagnostics in the descriptor file',
        }),
      );
    }
    return;
  }
  state.driverName = loaded.descriptor.type;
  state.descriptor = loaded.descriptor;
}
