import attorneys from './attorney.ts';
import companies from './company.ts';
import contacts from './contact.ts';
import firms from './firm.ts';
import owners from './owner.ts';
import properties from './property.ts';

/**
 * Every record type, one model file each: a new record type is its model file, one line here, its migration and
 * its generator. Imported in this order, each model file adds its GraphQL types (after those of the types it
 * imports), so the printed schema's order follows this list; record-type/catalog.ts orders them for the API.
 */
export const DECLARED_RECORD_TYPES = [attorneys, companies, contacts, firms, owners, properties];
