/**
 * Everything the Share dialog shows for one moment of the playground, computed in one place:
 * the state, what was left out, the encoded link text and which transport it needs, the file,
 * the mcp.json and the credential warnings. Pure apart from the platform's CompressionStream.
 */
import { buildShareState } from "./build";
import type { ShareInputs } from "./build";
import { encodeShareState, shareTransportFor } from "./encode";
import type { ShareTransport } from "./encode";
import { shareStateToFile } from "./file-format";
import { shareServersToMcpJson } from "./mcp-json";
import type { ShareMcpJson } from "./mcp-json";
import type { ShareState } from "./schema";
import { describeShare, findSecretLookalikes } from "./summary";

/** A share ready to hand out. */
export interface PreparedShare {
  state: ShareState;
  /** What was withheld or did not fit, for the person to read before sharing. */
  omitted: string[];
  /** What the share holds, one phrase per part. */
  contents: string[];
  /** Places in the person's own text that look like credentials. */
  lookalikes: string[];
  /** Link text, `v1.…`. */
  encoded: string;
  transport: ShareTransport;
  fileText: string;
  mcpJson: ShareMcpJson;
}

/** Builds, encodes and describes a share; `baseUrl` resolves demo-server routes in the mcp.json. */
export async function prepareShare(inputs: ShareInputs, options: { baseUrl?: string } = {}): Promise<PreparedShare> {
  const { state, omitted } = buildShareState(inputs);
  const encoded = await encodeShareState(state);
  return {
    state,
    omitted,
    contents: describeShare(state),
    lookalikes: findSecretLookalikes(state),
    encoded,
    transport: shareTransportFor(encoded),
    fileText: shareStateToFile(state),
    mcpJson: shareServersToMcpJson(state.servers, options),
  };
}
