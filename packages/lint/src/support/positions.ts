// Position conversions come from the compiler's one positions module.
export { LineIndex, spanOf } from '@verdict/compiler';
