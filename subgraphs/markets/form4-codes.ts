/**
 * Form 4 transaction codes (SEC Form 4 instructions, General Instruction 8): what the importer accepts and what
 * the insider trades `transactionCode` filter takes, one list for both.
 */
export const FORM4_TRANSACTION_CODES = [
  'P', // open-market or private purchase
  'S', // open-market or private sale
  'V', // voluntarily reported earlier than required
  'A', // grant or award
  'D', // disposition to the issuer
  'F', // tax or exercise price paid with securities
  'I', // discretionary transaction
  'M', // exercise or conversion of an exempt derivative
  'C', // conversion of a derivative
  'E', // expiration of a short derivative position
  'H', // expiration or cancellation of a long derivative position
  'O', // exercise of an out-of-the-money derivative
  'X', // exercise of an in- or at-the-money derivative
  'G', // gift
  'L', // small acquisition
  'W', // acquisition or disposition by will or the laws of descent
  'Z', // deposit into or withdrawal from a voting trust
  'J', // other acquisition or disposition (described in a footnote)
  'K', // equity swap or similar instrument
  'U', // disposition in a change-of-control tender
] as const;

export type Form4TransactionCode = (typeof FORM4_TRANSACTION_CODES)[number];
