// The compile step the runtime hands discovery: the one compile step,
// core/compile/compile-recipe.ts. In the shipped bundle this module is a stand-in
// (scripts/bundle.mjs) that loads the compile code the first time a recipe is compiled, so a
// process whose every recipe the compile cache serves never loads it (nor the YAML parser, io-ts
// and the template checks it brings). Import the compile step from here in runtime code that
// runs on a warm start; code that always compiles may import compile-recipe.ts itself.
export { compileRecipe as compileStep } from "../core/compile/compile-recipe.js";
