import { registerPairIndex } from '../platform/where-sql.ts';

/**
 * A state with a practice area, through the GIN index of migration 20261121143000_attorneys_state_practice_area
 * (docs/performance.md): the attorneys list's most common filter pair.
 */
registerPairIndex({ model: 'Attorney', fn: 'verticals_state_practice_areas', equals: 'state', has: 'practiceAreas' });
