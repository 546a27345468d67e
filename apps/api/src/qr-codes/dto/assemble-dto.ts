import { Type } from '@nestjs/common';
import { IntersectionType, PickType } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** The instance type of a class that has every field of `Parts`. */
export type Assembled<Parts extends readonly Type<object>[]> = UnionToIntersection<
  InstanceType<Parts[number]>
>;

/**
 * One DTO class made of parts that each declare their own fields, listed in `order`: the order of
 * the properties in the OpenAPI document and of the problems in a 400. IntersectionType alone
 * would list the fields part after part; here each run of consecutive fields of one part is a
 * PickType of it, and the runs are joined with IntersectionType, so the validation rules, the
 * transforms and the OpenAPI schema are the parts' own. A part must declare its fields in the
 * order they have in `order`, and `order` must name every field once: anything else throws when
 * the class is built, at start-up.
 */
export function assembleDto<const Parts extends readonly Type<object>[]>(
  parts: Parts,
  order: readonly (keyof Assembled<Parts> & string)[],
): Type<Assembled<Parts>> {
  const owners = new Map<string, Type<object>>();
  for (const part of parts) {
    const fields = fieldsOf(part);
    for (const field of fields) {
      const owner = owners.get(field);
      if (owner) {
        throw new Error(`${field} is declared by both ${owner.name} and ${part.name}`);
      }
      owners.set(field, part);
    }
    const listed = order.filter((field) => fields.includes(field));
    if (listed.join() !== fields.join()) {
      throw new Error(`${part.name} declares ${fields.join()}; the order lists ${listed.join()}`);
    }
  }
  const unknown = order.filter((field) => !owners.has(field));
  if (unknown.length > 0) {
    throw new Error(`No part declares ${unknown.join()}`);
  }
  const runs: Type<object>[] = [];
  for (let start = 0; start < order.length;) {
    const owner = owners.get(order[start]) as Type<object>;
    let end = start + 1;
    while (end < order.length && owners.get(order[end]) === owner) end += 1;
    runs.push(PickType(owner, order.slice(start, end) as never[]));
    start = end;
  }
  return IntersectionType(...runs) as Type<Assembled<Parts>>;
}

/** The fields of a part, in the order it declares them (each has a validation rule). */
function fieldsOf(part: Type<object>): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(part, '', true, false);
  return [...new Set(rules.map((rule) => rule.propertyName))];
}
