// @verdict/lint: explicit named exports only.
