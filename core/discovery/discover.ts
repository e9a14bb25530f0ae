// Discovery with the one compile step linked in (core/compile/compile-recipe.ts): for callers
// that load the compile code anyway. The runtime calls ./discover-with.ts with a compile step it
// loads on the first file that needs compiling (runtime/compile-step.ts).
import type { RegistrySnapshot } from "../model.js";
import { compileRecipe } from "../compile/compile-recipe.js";
import { discoverWith, type DiscoverOptions } from "./discover-with.js";
import type { Discovery } from "./discovery-result.js";

export { createDiscoveryMemo, discoverWith, type CompileStep, type DiscoverOptions, type DiscoveryMemo, type PassStats } from "./discover-with.js";

export const discover = (snapshot: RegistrySnapshot, options: DiscoverOptions = {}): Discovery => discoverWith(compileRecipe, snapshot, options);
