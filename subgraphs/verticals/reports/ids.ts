import { idCodec } from '../../platform/ids.ts';

/** Report job ids as the API prints them: rpt_12. */
export const reportIds = idCodec('rpt');
