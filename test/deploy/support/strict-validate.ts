// Unknown-field rejection for kubernetes-models. The models validate types, formats, enums and
// required fields against the Kubernetes OpenAPI schemas, but those schemas do not forbid
// additional properties, so a misspelt field (`replica:`, `imagePullPolicyy:`) passes — and the
// API server would drop it, or refuse it under `kubectl apply --validate=strict`.
//
// The models' validators are compiled JSON-schema code that reads each field the schema declares
// (`data.replicas`, present or not) and enumerates the keys only of maps (labels, annotations,
// ConfigMap data: `additionalProperties` with a schema). So the check runs the model's own
// validator over a proxy that records which keys it read and which objects it enumerated, then
// walks the object: in every object whose schema the validator looked into, a key it never read
// is one the schema does not declare. Objects the validator never looked into at all (free-form
// fields, e.g. `x-kubernetes-preserve-unknown-fields`) are left alone: there is no schema to hold
// them to.

interface Access {
  read: WeakMap<object, Set<PropertyKey>>;
  enumerated: WeakSet<object>;
}

function watch<T extends object>(target: T, access: Access, seen: WeakMap<object, object>): T {
  const known = seen.get(target);
  if (known) return known as T;
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      if (typeof key === 'string') {
        const read = access.read.get(t) ?? new Set();
        read.add(key);
        access.read.set(t, read);
      }
      const value = Reflect.get(t, key, receiver);
      return value !== null && typeof value === 'object' ? watch(value, access, seen) : value;
    },
    has(t, key) {
      const read = access.read.get(t) ?? new Set();
      read.add(key);
      access.read.set(t, read);
      return Reflect.has(t, key);
    },
    ownKeys(t) {
      access.enumerated.add(t);
      return Reflect.ownKeys(t);
    },
  });
  seen.set(target, proxy);
  return proxy;
}

/** Paths of the fields the model's schema does not declare (empty when there are none). */
export function unknownFields(model: { validate(): void }): string[] {
  const access: Access = { read: new WeakMap(), enumerated: new WeakSet() };
  // The model's validator with `this` = the watched model (a wrong type elsewhere still throws here).
  model.validate.call(watch(model, access, new WeakMap()));
  const found: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      node.forEach((x, i) => walk(x, `${at}[${i}]`));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const read = access.read.get(node);
    const isMap = access.enumerated.has(node);
    for (const [key, value] of Object.entries(node)) {
      if (read && !isMap && !read.has(key)) found.push(`${at}.${key}`);
      else walk(value, `${at}.${key}`);
    }
  };
  walk(model, '');
  return found.map((p) => p.replace(/^\./, ''));
}

/** validate() and unknown-field rejection: throws with every unknown field's path. */
export function validateStrict(model: { validate(): void }, name: string): void {
  model.validate();
  const unknown = unknownFields(model);
  if (unknown.length > 0) throw new Error(`${name}: fields the schema does not know: ${unknown.join(', ')}`);
}
