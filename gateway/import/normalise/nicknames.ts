/**
 * Given names that disclosures and the legislators file write differently for one person ("Thomas R Carper",
 * "William Cassidy" for Bill Cassidy, "A. Mitchell Mcconnell" for Mitch McConnell). Each group is one name.
 */
const GROUPS = [
  ['william', 'bill', 'billy', 'will'],
  ['thomas', 'tom', 'tommy', 'thom'],
  ['robert', 'bob', 'bobby', 'rob'],
  ['richard', 'rich', 'rick', 'dick'],
  ['james', 'jim', 'jimmy'],
  ['joseph', 'joe'],
  ['michael', 'mike'],
  ['john', 'jack'],
  ['daniel', 'dan', 'danny'],
  ['christopher', 'chris'],
  ['patrick', 'pat'],
  ['patricia', 'patty', 'pat'],
  ['timothy', 'tim'],
  ['benjamin', 'ben'],
  ['edward', 'ed', 'ted'],
  ['charles', 'chuck', 'charlie'],
  ['david', 'dave'],
  ['matthew', 'matt'],
  ['nathaniel', 'nate'],
  ['gregory', 'greg'],
  ['steven', 'stephen', 'steve'],
  ['donald', 'don'],
  ['ronald', 'ron'],
  ['jacklyn', 'jacky', 'jackie'],
  ['kenneth', 'ken'],
  ['anthony', 'tony'],
  ['andrew', 'andy'],
  ['elizabeth', 'liz', 'beth'],
  ['katherine', 'kathy', 'kate', 'katie'],
  ['susan', 'sue'],
  ['gerald', 'gerry', 'jerry'],
  ['jerome', 'jerry'],
  ['lawrence', 'larry'],
  ['albert', 'al'],
  ['alan', 'al'],
  ['alexander', 'alex'],
  ['samuel', 'sam'],
  ['frederick', 'fred'],
  ['mitchell', 'mitch'],
  ['valerie', 'val'],
  ['deborah', 'debbie', 'deb'],
  ['margaret', 'maggie', 'peggy'],
  ['jacob', 'jake'],
  ['zachary', 'zach'],
  ['raymond', 'ray'],
  ['randall', 'randy'],
  ['theodore', 'ted'],
  ['gilbert', 'gil'],
  ['kelly', 'kel'],
];

const BY_NAME = new Map<string, Set<string>>();
for (const group of GROUPS) {
  for (const name of group) {
    const set = BY_NAME.get(name) ?? new Set([name]);
    group.forEach((other) => set.add(other));
    BY_NAME.set(name, set);
  }
}

/** A given name and the names it is also written as (folded, lower case). */
export function givenNameForms(name: string): string[] {
  return [...(BY_NAME.get(name) ?? [name])];
}
