// The service definitions, loaded from resources/proto at start (no
// generated code), and what the app reads from their descriptors: the
// enums' names and numbers, and which request fields are enums.
import protoLoader from '@grpc/proto-loader';
import { protoPath as healthProto } from 'grpc-health-check';

const PROTO_DIR = new URL('../../../resources/proto', import.meta.url).pathname;
const PACKAGE = 'crudbench.v1';

/**
 * packageDefinition is crudbench.v1.Staff and grpc.health.v1.Health, with
 * the proto's own field names (keepCase: snake_case, so that a field
 * violation and a read mask name the proto's fields), 64-bit integers as
 * decimal strings (an id past 2^53 must not be read as another id), enums
 * as their numbers (so that a number the enum lacks stays visible and is
 * refused, never taken for another value) and unset fields absent.
 */
export const packageDefinition = protoLoader.loadSync(['crudbench/v1/crudbench.proto', healthProto], {
  keepCase: true,
  longs: String,
  enums: Number,
  defaults: false,
  oneofs: false,
  includeDirs: [PROTO_DIR],
});

export const STAFF = `${PACKAGE}.Staff`;
export const staffService = packageDefinition[STAFF];

/** typeOf returns the descriptor entry of a type name as a descriptor writes it (relative or full). */
function typeOf(name) {
  const full = name.startsWith('.') ? name.slice(1) : name;
  return packageDefinition[full] ?? packageDefinition[`${PACKAGE}.${full}`];
}

/**
 * enumOf returns { number(storeValue), name(number) } of an enum, whose
 * values are the store's in upper case behind the enum's prefix
 * ("on_leave" is PERSON_STATUS_ON_LEAVE): number is 0 (UNSPECIFIED) for an
 * empty or unknown value, storeValue "" for UNSPECIFIED or a number the
 * enum lacks (unknownEnums refuses the latter first).
 */
export function enumOf(name, prefix) {
  const values = typeOf(name).type.value;
  const numbers = new Map();
  const stored = new Map();
  for (const v of values) {
    if (v.number === 0) continue;
    const s = v.name.slice(prefix.length).toLowerCase();
    numbers.set(s, v.number);
    stored.set(v.number, s);
  }
  return { number: (s) => numbers.get(s) ?? 0, storeValue: (n) => stored.get(n) ?? '' };
}

/**
 * unknownEnums returns the field violations of every enum field of msg
 * (a decoded message of type typeName) whose number its enum does not
 * declare, in nested and repeated messages too, each named by its path
 * ("vacancy.status"), or null when there is none: the Go app's knownEnums.
 */
export function unknownEnums(typeName, msg) {
  let fields = null;
  const walk = (type, value, prefix) => {
    for (const fd of typeOf(type).type.field) {
      const v = value[fd.name];
      if (v === undefined || v === null) continue;
      const items = fd.label === 'LABEL_REPEATED' ? v : [v];
      items.forEach((item, i) => {
        const path = fd.label === 'LABEL_REPEATED' ? `${prefix}${fd.name}[${i}]` : `${prefix}${fd.name}`;
        if (fd.type === 'TYPE_ENUM') {
          const e = typeOf(fd.typeName).type;
          if (!e.value.some((ev) => ev.number === item)) {
            fields ??= {};
            fields[path] = `is not a ${e.name}`;
          }
        } else if (fd.type === 'TYPE_MESSAGE') {
          walk(fd.typeName, item, `${path}.`);
        }
      });
    }
  };
  walk(typeName, msg, '');
  return fields;
}

/** fieldNames lists the fields of a message type, as the proto names them. */
export function fieldNames(typeName) {
  return typeOf(typeName).type.field.map((fd) => fd.name);
}
