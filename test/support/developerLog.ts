// A small builder for developer/v8 envelope logs exercising the frame, support, discharge,
// conclusion, authorization and landing kinds. Payloads are built through the value layer so
// hashes are right unless a test overrides them on purpose.
import { createEnvelope, type Envelope, type EnvelopeDraft, type EventRef } from "../../server/ledger/envelope";
import type { JsonValue } from "../../server/ledger/canonicalJson";
import { createAuthorization, type Authorization } from "../../server/developer/values/authorization";
import { EMPTY_BLOCKER_SET_SHA256 } from "../../server/developer/values/blockers";
import { conclusionSha256, type ConclusionProposal } from "../../server/developer/values/conclusions";
import { proposalSha256, type ContributionSourceKind, type ContributionTargetUse, type ProposalBody } from "../../server/developer/values/contributions";
import { createLanding, type Landing } from "../../server/developer/values/landing";
import { obligationSetSha256, type Obligation } from "../../server/developer/values/obligations";
import type { RouteFrame } from "../../server/developer/values/routeFrame";
import { closeScope, next, refOf, sha } from "./envelopes";

/** Deterministic audit times (one second per entry), so pinned receipt hashes never depend on test order. */
function timeOf(index: number): string {
  return new Date(Date.UTC(2030, 0, 1, 0, 0, 0) + index * 1_000).toISOString();
}

export const ROUTE_REVISION = sha("8");

export interface FrameSpec {
  readonly frame: RouteFrame;
  readonly obligations: readonly Obligation[];
}

/** A frame with obligations `<frameId>/<name>` for each name (ids sorted as given). */
export function frameSpec(
  workScopeId: string,
  frameId: string,
  names: readonly string[],
  options: { parentFrameId?: string | null; routeDefinitionId?: string; frameRevision?: number } = {},
): FrameSpec {
  const obligations = names.map((name) => ({
    obligationId: `obligation:${frameId.replace(/^frame:/u, "")}-${name}`,
    frameId,
    statement: `${name} is settled.`,
  }));
  return {
    frame: {
      frameId,
      frameRevision: options.frameRevision ?? 0,
      workScopeId,
      parentFrameId: options.parentFrameId ?? null,
      routeDefinitionId: options.routeDefinitionId ?? "route:meaning-settlement",
      routeDefinitionRevisionSha256: ROUTE_REVISION,
      exactQuestion: `What settles ${frameId}?`,
      obligationIds: obligations.map((entry) => entry.obligationId),
      obligationSetSha256: obligationSetSha256(obligations),
    },
    obligations,
  };
}

export function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/**
 * Appends events to one scope. `add` advances the builder's head only when asked, so a test can
 * create a rejected entry and then a corrected entry with the same sequence.
 */
export class ScopeLog {
  readonly entries: unknown[] = [];
  head: Envelope;

  constructor(readonly workScopeId: string) {
    this.head = createEnvelope({
      protocolVersion: "developer/v8",
      eventId: `event:${workScopeId.replace(/^scope:/u, "")}-open`,
      workScopeId,
      scopeSequence: 0,
      previousScopeEventSha256: null,
      causalRefs: [],
      occurredAt: timeOf(0),
      kind: "work-scope-opened",
      payload: {},
    });
    this.entries.push(this.head);
  }

  /** Builds the next event after the head; `advance: false` leaves the head (for rejected entries). */
  add(kind: string, payload: JsonValue, options: { causes?: EventRef[]; advance?: boolean; overrides?: Partial<EnvelopeDraft> } = {}): Envelope {
    const envelope = next(this.head, kind, payload as EnvelopeDraft["payload"], {
      causalRefs: options.causes ?? [],
      eventId: `event:${this.workScopeId.replace(/^scope:/u, "")}-${this.head.scopeSequence + 1}-${this.entries.length}`,
      occurredAt: timeOf(this.entries.length),
      ...options.overrides,
    });
    this.entries.push(envelope);
    if (options.advance !== false) this.head = envelope;
    return envelope;
  }

  openFrame(spec: FrameSpec, options: { dependency?: JsonValue; causes?: EventRef[]; advance?: boolean } = {}): Envelope {
    return this.add(
      "route-frame-opened",
      toJson({ frame: spec.frame, obligations: spec.obligations, parentDependency: options.dependency ?? null }),
      options,
    );
  }

  support(supportId: string, sourceKind: string, supportSha256: string, options: { advance?: boolean } = {}): Envelope {
    return this.add(
      "support-observed",
      { support: { supportId, sourceKind, sourceId: `source:${supportId.replace(/^support:/u, "")}`, sourceRevisionSha256: supportSha256, supportSha256 } },
      options,
    );
  }

  admit(
    spec: FrameSpec,
    contributionId: string,
    source: { kind: ContributionSourceKind; sourceId: string; sourceRevisionSha256: string },
    targetUses: readonly ContributionTargetUse[],
    options: { causes?: EventRef[]; advance?: boolean; expected?: string; supportSha256?: string } = {},
  ): Envelope {
    const proposal: ProposalBody = {
      proposalId: `proposal:${contributionId.replace(/^contribution:/u, "")}`,
      frameId: spec.frame.frameId,
      frameRevision: spec.frame.frameRevision,
      source,
      claim: "The evidence settles the targets.",
      applicability: "Applies to this frame.",
      targetUses,
      limitations: ["Only this frame."],
      supportSha256: options.supportSha256 ?? source.sourceRevisionSha256,
    };
    return this.add(
      "frame-contribution-admitted",
      toJson({ proposal, expectedProposalSha256: options.expected ?? proposalSha256(proposal), contributionId, admissionBasisSha256: sha("b") }),
      options,
    );
  }

  discharge(
    spec: FrameSpec,
    dischargeId: string,
    obligationId: string,
    contributionIds: readonly string[],
    options: { advance?: boolean; stopEvidence?: string[] } = {},
  ): Envelope {
    return this.add(
      "obligation-discharged",
      toJson({
        discharge: {
          dischargeId,
          frameId: spec.frame.frameId,
          expectedFrameRevision: spec.frame.frameRevision,
          obligationId,
          contributionIds,
          stopEvidence: options.stopEvidence ?? ["Seen in the evidence."],
          conclusion: "Settled.",
        },
      }),
      options,
    );
  }

  conclusionProposal(spec: FrameSpec, dischargeIds: readonly string[], blockerSet = EMPTY_BLOCKER_SET_SHA256): ConclusionProposal {
    return {
      frameId: spec.frame.frameId,
      expectedFrameRevision: spec.frame.frameRevision,
      dischargeIds,
      stopEvidence: ["Every obligation is settled."],
      expectedBlockerSetSha256: blockerSet,
      conclusion: "The question is settled.",
    };
  }

  conclude(spec: FrameSpec, dischargeIds: readonly string[], options: { causes?: EventRef[]; advance?: boolean; blockerSet?: string } = {}): Envelope {
    return this.add("route-frame-concluded", toJson({ proposal: this.conclusionProposal(spec, dischargeIds, options.blockerSet) }), options);
  }

  resolve(frameId: string, blockerId: string, resolutionBasisSha256: string, options: { causes?: EventRef[]; advance?: boolean } = {}): Envelope {
    return this.add("frame-blocker-resolved", { frameId, blockerId, resolutionBasisSha256 }, options);
  }

  authorize(spec: FrameSpec, dischargeIds: readonly string[], options: { causes?: EventRef[]; advance?: boolean; authorizationId?: string } = {}): Authorization {
    const authorization = createAuthorization({
      authorizationId: options.authorizationId ?? "change:1",
      frameId: spec.frame.frameId,
      frameRevision: spec.frame.frameRevision,
      conclusionSha256: conclusionSha256(this.conclusionProposal(spec, dischargeIds)),
      movement: "Move the code.",
      stableLanding: "The code lands.",
      verificationTarget: "Tests pass.",
      boundary: null,
    });
    this.add("change-authorized", toJson({ authorization }), options);
    return authorization;
  }

  land(authorizationId: string, rerouteFrameId: string, verificationFrameId: string, options: { causes?: EventRef[]; advance?: boolean } = {}): Landing {
    const landing = createLanding({
      landingId: "landing:1",
      authorizationId,
      changedPaths: ["src/a.ts"],
      result: "Landed.",
      verification: ["npm test"],
      rerouteFrameId,
      verificationFrameId,
    });
    this.add("implementation-landing-recorded", toJson({ landing }), options);
    return landing;
  }

  close(options: { advance?: boolean } = {}): Envelope {
    const envelope = closeScope(this.head, "User disabled Developer.", {
      eventId: `event:${this.workScopeId.replace(/^scope:/u, "")}-close-${this.entries.length}`,
      occurredAt: timeOf(this.entries.length),
    });
    this.entries.push(envelope);
    if (options.advance !== false) this.head = envelope;
    return envelope;
  }
}

export { refOf, sha };
