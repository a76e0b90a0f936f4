// @verdict/compiler: explicit named exports only.
