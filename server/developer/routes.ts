// The stable route catalogue of developer/v8 (§4.1). Route ids, signs and senses are wire data:
// every byte of them feeds `revisionSha256`, which frames record and the adapter revision hashes,
// so they must never be reworded, re-punctuated or translated here (UI strings live in l10n).
import { hashValue } from "../ledger/canonicalJson";
import { exactKeys, fail, idAt, objectAt, shaAt, textAt } from "../ledger/values";

/** A route's sign is a short label; §1.1 caps it well below the general text limit. */
export const MAX_ROUTE_SIGN_LENGTH = 500;

export const ROUTE_DEFINITION_DOMAIN = "developer.route-definition/v1";

export interface RouteDefinitionBody {
  readonly routeDefinitionId: string;
  readonly sign: string;
  readonly sense: string;
}

export interface RouteDefinition extends RouteDefinitionBody {
  readonly revisionSha256: string;
}

/** H({domain, value:{routeDefinitionId, sign, sense}}); the body is rebuilt so extra fields never leak into the hash. */
export function routeDefinitionSha256(body: RouteDefinitionBody): string {
  return hashValue({
    domain: ROUTE_DEFINITION_DOMAIN,
    value: { routeDefinitionId: body.routeDefinitionId, sign: body.sign, sense: body.sense },
  });
}

/**
 * Strict parse: exact keys, the §1.1 text rules (no trimming), and a revision hash that must
 * equal the recomputed one — a definition whose wording drifted from its hash is rejected.
 */
export function parseRouteDefinition(value: unknown, path = "routeDefinition"): RouteDefinition {
  const data = objectAt(value, path);
  exactKeys(data, path, ["routeDefinitionId", "sign", "sense", "revisionSha256"]);
  const body: RouteDefinitionBody = {
    routeDefinitionId: idAt(data.routeDefinitionId, `${path}.routeDefinitionId`),
    sign: textAt(data.sign, `${path}.sign`, { max: MAX_ROUTE_SIGN_LENGTH }),
    sense: textAt(data.sense, `${path}.sense`),
  };
  const revisionSha256 = shaAt(data.revisionSha256, `${path}.revisionSha256`);
  if (routeDefinitionSha256(body) !== revisionSha256) {
    fail(`${path}.revisionSha256`, "does not match the route definition");
  }
  return Object.freeze({ ...body, revisionSha256 });
}

/** Builds a definition through the parser so the catalogue obeys the same rules as input. */
export function createRouteDefinition(body: RouteDefinitionBody): RouteDefinition {
  return parseRouteDefinition({ ...body, revisionSha256: routeDefinitionSha256(body) });
}

// Order matters: the adapter revision hashes the catalogue in exactly this order.
// Two signs use U+2013 EN DASH (written as an escape so an editor cannot swap it for a hyphen).
const CATALOGUE_BODIES: readonly RouteDefinitionBody[] = [
  {
    routeDefinitionId: "route:meaning-settlement",
    sign: "meaning settlement",
    sense: "Settle product meaning, scope, invariants, constraints, and blocking unknowns before implementation.",
  },
  {
    routeDefinitionId: "route:condition-settlement",
    sign: "condition settlement",
    sense:
      "Settle condition space, rules, forbidden states, transitions, objectives, and guarantee placement for correctness.",
  },
  {
    routeDefinitionId: "route:implementation-shaping",
    sign: "implementation shaping",
    sense:
      "Shape implementable data, interfaces, responsibilities, collaborations, checks, and a bounded implementation queue from settled intent.",
  },
  {
    routeDefinitionId: "route:structural-pressure-observation",
    sign: "structural-pressure observation",
    sense:
      "Determine whether observable structural movement warrants a bounded candidate without treating similarity as proof.",
  },
  {
    routeDefinitionId: "route:name-sense-judgment",
    sign: "name\u2013sense judgment",
    sense: "Judge whether a code name preserves stable domain meaning, scope, distinctions, and visible effects.",
  },
  {
    routeDefinitionId: "route:candidate-reliability",
    sign: "candidate reliability",
    sense:
      "Judge whether a concrete interface, helper, API, workflow rule, boundary, or structure is reliable enough to keep, revise, split, reject, or defer.",
  },
  {
    routeDefinitionId: "route:change-timing",
    sign: "change timing",
    sense:
      "Decide whether a concrete change belongs now, after, or never under invariant pressure, evidence, reversibility, nested-work pressure, and delay cost.",
  },
  {
    routeDefinitionId: "route:claim-evidence-assessment",
    sign: "claim\u2013evidence assessment",
    sense:
      "Determine the strongest scoped claim supported by current code, tests, observations, invariants, and source provenance.",
  },
];

/** The eight stable routes, in catalogue order. */
export const ROUTE_CATALOGUE: readonly RouteDefinition[] = Object.freeze(CATALOGUE_BODIES.map(createRouteDefinition));

export const ROUTE_DEFINITION_IDS: readonly string[] = Object.freeze(
  ROUTE_CATALOGUE.map((route) => route.routeDefinitionId),
);

const routesById: ReadonlyMap<string, RouteDefinition> = new Map(
  ROUTE_CATALOGUE.map((route) => [route.routeDefinitionId, route]),
);

/** The catalogue entry for an id, or undefined; the reducer never calls this (§1.2), only the adapter does. */
export function findRouteDefinition(routeDefinitionId: string): RouteDefinition | undefined {
  return routesById.get(routeDefinitionId);
}

/** Like findRouteDefinition, for callers that already know the id must be catalogued. */
export function requireRouteDefinition(routeDefinitionId: string, path = "routeDefinitionId"): RouteDefinition {
  const route = routesById.get(routeDefinitionId);
  if (route === undefined) return fail(path, "is not a route in the stable catalogue");
  return route;
}

/** Position in catalogue order (0-based), or -1 when the id is not catalogued. */
export function routeCatalogueIndex(routeDefinitionId: string): number {
  return ROUTE_DEFINITION_IDS.indexOf(routeDefinitionId);
}
