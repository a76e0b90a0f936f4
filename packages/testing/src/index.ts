// @verdict/testing: explicit named exports only.
