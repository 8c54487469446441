/**
 * Exact text of the declarations for the four real servers in tests/fixtures/schemas.
 * Each expected text below was read and judged right before it was pinned: shared shapes
 * (memory's Entity, Relation), optional inputs, no-argument functions, defaults and formats
 * in JSDoc, `*\/` escaped (filesystem's search_files), output types from outputSchema and
 * the note where there is none. Change them on purpose, never to make a test pass.
 */
import { describe, expect, it } from "vitest";
import { generateDeclarations } from "../../../lib/codemode/declarations";
import { loadServer } from "./helpers";

const EVERYTHING = String.raw`declare namespace everything{
/** Echoes back the input string
@returns No output schema: inspect the value before relying on its shape. */
function echo(input:{
/** Message to echo */
message:string;
}):Promise<unknown>;
/** Demonstrates how annotations can be used to provide metadata about content.
@returns No output schema: inspect the value before relying on its shape. */
function get_annotated_message(input:{
/** Type of message to demonstrate different annotation patterns */
messageType:"error"|"success"|"debug";
/** Whether to include an example image @default false */
includeImage?:boolean;
}):Promise<unknown>;
/** Returns all environment variables, helpful for debugging MCP server configuration
@returns No output schema: inspect the value before relying on its shape. */
function get_env():Promise<unknown>;
/** Returns up to ten resource links that reference different types of resources
@returns No output schema: inspect the value before relying on its shape. */
function get_resource_links(input?:{
/** Number of resource links to return (1-10) @default 3 */
count?:number;
}):Promise<unknown>;
/** Returns a resource reference that can be used by MCP clients
@returns No output schema: inspect the value before relying on its shape. */
function get_resource_reference(input?:{
/** @default "Text" */
resourceType?:"Text"|"Blob";
/** ID of the text resource to fetch @default 1 */
resourceId?:number;
}):Promise<unknown>;
/** Returns structured content along with an output schema for client data validation */
function get_structured_content(input:{
/** Choose city */
location:"New York"|"Chicago"|"Los Angeles";
}):Promise<{
/** Temperature in celsius */
temperature:number;
/** Weather conditions description */
conditions:string;
/** Humidity percentage */
humidity:number;
}>;
/** Returns the sum of two numbers
@returns No output schema: inspect the value before relying on its shape. */
function get_sum(input:{
/** First number */
a:number;
/** Second number */
b:number;
}):Promise<unknown>;
/** Returns a tiny MCP logo image.
@returns No output schema: inspect the value before relying on its shape. */
function get_tiny_image():Promise<unknown>;
/** Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded in a subsequent request during the current session.
@returns No output schema: inspect the value before relying on its shape. */
function gzip_file_as_resource(input?:{
/** Name of the output file @default "README.md.gz" */
name?:string;
/** URL or data URI of the file content to compress @default "https://raw.githubusercontent.com/modelcontextprotocol/ser… @format uri */
data?:string;
/** How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object. @default "resourceLink" */
outputType?:"resourceLink"|"resource";
}):Promise<unknown>;
/** Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and client supports elicitation, sends an elicitation request for clarification.
@returns No output schema: inspect the value before relying on its shape. */
function simulate_research_query(input:{
/** The research topic to investigate */
topic:string;
/** Simulate an ambiguous query that requires clarification (triggers input_required status) @default false */
ambiguous?:boolean;
}):Promise<unknown>;
/** Toggles simulated, random-leveled logging on or off.
@returns No output schema: inspect the value before relying on its shape. */
function toggle_simulated_logging():Promise<unknown>;
/** Toggles simulated resource subscription updates on or off.
@returns No output schema: inspect the value before relying on its shape. */
function toggle_subscriber_updates():Promise<unknown>;
/** Demonstrates a long running operation with progress updates.
@returns No output schema: inspect the value before relying on its shape. */
function trigger_long_running_operation(input?:{
/** Duration of the operation in seconds @default 10 */
duration?:number;
/** Number of steps in the operation @default 5 */
steps?:number;
}):Promise<unknown>;
}`;

const FILESYSTEM = String.raw`declare namespace filesystem{
type Input={
path:string;
/** If provided, returns only the last N lines of the file */
tail?:number;
/** If provided, returns only the first N lines of the file */
head?:number;
}
/** Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories. */
function create_directory(input:{path:string}):Promise<{content:string}>;
/** Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). The output is formatted with 2-space indentation for readability. Only works within allowed directories. */
function directory_tree(input:{
path:string;
/** @default [] */
excludePatterns?:string[];
}):Promise<{content:string}>;
/** Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories. */
function edit_file(input:{
path:string;
edits:{
/** Text to search for - must match exactly */
oldText:string;
/** Text to replace with */
newText:string;
}[];
/** Preview changes using git-style diff format @default false */
dryRun?:boolean;
}):Promise<{content:string}>;
/** Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories. */
function get_file_info(input:{path:string}):Promise<{content:string}>;
/** Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files. */
function list_allowed_directories():Promise<{content:string}>;
/** Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories. */
function list_directory(input:{path:string}):Promise<{content:string}>;
/** Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories. */
function list_directory_with_sizes(input:{
path:string;
/** Sort entries by name or size @default "name" */
sortBy?:"name"|"size";
}):Promise<{content:string}>;
/** Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories. */
function move_file(input:{source:string;destination:string}):Promise<{content:string}>;
/** Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead. */
function read_file(input:Input):Promise<{content:string}>;
/** Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories. */
function read_media_file(input:{path:string}):Promise<{content:({type:"image"|"audio";data:string;mimeType:string}|{type:"resource";resource:{uri:string;mimeType?:string;blob:string}})[]}>;
/** Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories. */
function read_multiple_files(input:{
/** Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories. */
paths:string[];
}):Promise<{content:string}>;
/** Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories. */
function read_text_file(input:Input):Promise<{content:string}>;
/** Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext' to match files in current directory, and '**\/*.ext' to match files in all subdirectories. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories. */
function search_files(input:{
path:string;
pattern:string;
/** @default [] */
excludePatterns?:string[];
}):Promise<{content:string}>;
/** Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories. */
function write_file(input:{path:string;content:string}):Promise<{content:string}>;
}`;

const MEMORY = String.raw`declare namespace memory{
type Entity={
/** The name of the entity */
name:string;
/** The type of the entity */
entityType:string;
/** An array of observation contents associated with the entity */
observations:string[];
}
type Relation={
/** The name of the entity where the relation starts */
from:string;
/** The name of the entity where the relation ends */
to:string;
/** The type of the relation */
relationType:string;
}
type EntitiesRelations={entities:Entity[];relations:Relation[]}
/** Add new observations to existing entities in the knowledge graph */
function add_observations(input:{observations:{
/** The name of the entity to add the observations to */
entityName:string;
/** An array of observation contents to add */
contents:string[];
}[]}):Promise<{results:{entityName:string;addedObservations:string[]}[]}>;
/** Create multiple new entities in the knowledge graph */
function create_entities(input:{entities:Entity[]}):Promise<{entities:Entity[]}>;
/** Create multiple new relations between entities in the knowledge graph. Relations should be in active voice */
function create_relations(input:{relations:Relation[]}):Promise<{relations:Relation[]}>;
/** Delete multiple entities and their associated relations from the knowledge graph */
function delete_entities(input:{
/** An array of entity names to delete */
entityNames:string[];
}):Promise<{success:boolean;message:string}>;
/** Delete specific observations from entities in the knowledge graph */
function delete_observations(input:{deletions:{
/** The name of the entity containing the observations */
entityName:string;
/** An array of observations to delete */
observations:string[];
}[]}):Promise<{success:boolean;message:string}>;
/** Delete multiple relations from the knowledge graph */
function delete_relations(input:{
/** An array of relations to delete */
relations:Relation[];
}):Promise<{success:boolean;message:string}>;
/** Open specific nodes in the knowledge graph by their names */
function open_nodes(input:{
/** An array of entity names to retrieve */
names:string[];
}):Promise<EntitiesRelations>;
/** Read the entire knowledge graph */
function read_graph():Promise<EntitiesRelations>;
/** Search for nodes in the knowledge graph based on a query */
function search_nodes(input:{
/** The search query to match against entity names, types, and observation content */
query:string;
}):Promise<EntitiesRelations>;
}`;

const SEQUENTIAL_THINKING = String.raw`declare namespace sequential_thinking{
/** A detailed tool for dynamic and reflective problem-solving through thoughts.
This tool helps analyze problems through a flexible thinking process that can adapt and evolve.
Each thought can build on, question, or revise previous insights as understanding deepens.

When to use this tool:
- Breaking down complex problems into steps
- Planning and design with room for revision
- Analysis that might need course correction
- Problems where the full scope might not be clear initially
- Problems that require a multi-step solution
- Tasks that need to maintain context over multiple steps
- Situations where irrelevant information needs to be filtered out

Key features:
- You can adjust total_thoughts up or down as you progress
- You can question or revise previous thoughts
- You can add more thoughts even after reaching what seemed like the end
- You can express uncertainty and explore alternative approaches
- Not every thought needs to build linearly - you can branch or backtrack
- Generates a solution hypothesis
- Verifies the hypothesis based on the Chain of Thought steps
- Repeats the process until satisfied
- Provides a correct answer

Parameters explained:
- thought: Your current thinking step, which can include:
  * Regular analytical steps
  * Revisions of previous thoughts
  * Questions about previous decisions
  * Realizations about needing more analysis
  * Changes in approach
  * Hypothesis generation
  * Hypothesis verification
- nextThoughtNeeded: True if you need more thinking, even if at what seemed like the end
- thoughtNumber: Current number in sequence (can go beyond initial total if needed)
- totalThoughts: Current estimate of thoughts needed (can be adjusted up/down)
- isRevision: A boolean indicating if this thought revises previous thinking
- revisesThought: If is_revision is true, which thought number is being reconsidered
- branchFromThought: If branching, which thought number is the branching point
- branchId: Identifier for the current branch (if any)
- needsMoreThoughts: If reaching end but realizing more thoughts needed

You should:
1. Start with an initial estimate of needed thoughts, but be ready to adjust
2. Feel free to question or revise previous thoughts
3. Don't hesitate to add more thoughts if needed, even at the "end"
4. Express uncertainty when present
5. Mark thoughts that revise previous thinking or branch into new paths
6. Ignore information that is irrelevant to the current step
7. Generate a solution hypothesis when appropriate
8. Verify the hypothesis based on the Chain of Thought steps
9. Repeat the process until satisfied with the solution
10. Provide a single, ideally correct answer as the final output
11. Only set nextThoughtNeeded to false when truly done and a satisfactory answer is reached */
function sequentialthinking(input:{
/** Your current thinking step */
thought:string;
/** Whether another thought step is needed */
nextThoughtNeeded:boolean|string;
/** Current thought number (numeric value, e.g., 1, 2, 3) */
thoughtNumber:number;
/** Estimated total thoughts needed (numeric value, e.g., 5, 10) */
totalThoughts:number;
/** Whether this revises previous thinking */
isRevision?:boolean|string;
/** Which thought is being reconsidered */
revisesThought?:number;
/** Branching point thought number */
branchFromThought?:number;
/** Branch identifier */
branchId?:string;
/** If more thoughts are needed */
needsMoreThoughts?:boolean|string;
}):Promise<{thoughtNumber:number;totalThoughts:number;nextThoughtNeeded:boolean;branches:string[];thoughtHistoryLength:number}>;
}`;

describe("declarations for real servers", () => {
  it.each([
    ["everything", EVERYTHING],
    ["filesystem", FILESYSTEM],
    ["memory", MEMORY],
    ["sequential-thinking", SEQUENTIAL_THINKING],
  ])("%s", (name, expected) => {
    expect(generateDeclarations([loadServer(name)]).text).toBe(expected);
  });

  it("puts all servers in one text, sorted by namespace", () => {
    const servers = ["sequential-thinking", "memory", "everything", "filesystem"].map(loadServer);
    expect(generateDeclarations(servers).text).toBe([EVERYTHING, FILESYSTEM, MEMORY, SEQUENTIAL_THINKING].join("\n"));
  });
});
