// Package content is the content service of Tenger (spec §7 "Content"): it
// serves the texts of each page of the web app, in English (en-US) and
// Mongolian (mn-MN), through a small GraphQL endpoint.
//
// # Texts
//
// The texts live in the repository as texts/<locale>/<pageId>.json, one JSON
// object of text keys per page (nested objects allowed), and are compiled
// into the binary (Texts). Every page id present in en-US must also exist in
// mn-MN with the same keys; a test enforces it.
//
// # Storage
//
// Load copies the texts into the storage port at start-up, both under
// tenger serve and at a Lambda cold start: one item per page and locale, pk
// "CONTENT#<pageId>", sk "<locale>", attribute "translations" holding the JSON
// text and "hash" its SHA-256. A manifest item (pk "CONTENT", sk "MANIFEST")
// lists every loaded page with its hash, so an unchanged load costs one read,
// changed pages are rewritten and removed pages deleted.
//
// # Locale rules (spec §9)
//
// The requested locale is taken from the locale argument, else from the lan
// cookie with '_' replaced by '-', else en-US. en-US serves English; every
// other locale serves Mongolian, except that corporate verification pages
// (ids starting with "corporateVerification") serve English for zh-CN. When a
// page has no texts in the mapped locale, the English texts are served. An
// empty id is an error ("page id must not be empty"), and so is an unknown id
// ("page not found: <id>").
//
// # GraphQL
//
// The schema is
//
//	type Query { page(id: String!, locale: String): Page! }
//	type Page  { id: String!  locale: String!  translations: JSON! }
//
// Service.Handler answers POST /graphql with a JSON body {"query",
// "variables", "operationName"} (or an application/graphql body) and GET
// /graphql?query=...&variables=... . The query language is parsed by a real
// recursive-descent parser: named or anonymous query operations, variable
// definitions with defaults, aliases, arguments given as literals or
// variables, __typename, and repeated fields merged as GraphQL prescribes.
// Fragments, directives, mutations and introspection are rejected with a
// clear message. A result is {"data": {"page": {...}}}; errors are
// {"data": null, "errors": [{"message": ...}]} with HTTP 200, or 400 when the
// request itself is malformed (not JSON, no query). Error messages that
// quote the caller's input (a page id, an operation name) have control,
// format and non-UTF-8 characters escaped (\x1b, \u202e), so an answer can
// never carry raw terminal or bidirectional controls.
//
// # Limits
//
// GraphQL lets one small request ask for a lot: 100 aliases of page once
// answered 686 KB to a 3.7 KB request. The bounds on one request are named
// constants in graphql_limits.go, each set well above what the web app's
// query (about 90 bytes, 4 fields, 2 levels, at most about 11 KB answered)
// needs, which TestLimitsLeaveRoomForTheApp checks with a fourfold margin:
//
//   - maxRequestBytes (64 KiB): the POST body or GET query string; over it
//     is a malformed request, HTTP 400.
//   - maxQueryFields (16): field selections in the executed operation,
//     every alias and repeated field counted.
//   - maxQueryDepth (8): how deep fields nest, root fields being depth 1.
//   - maxAnswerBytes (256 KiB): the JSON answer, checked while it is built;
//     a single page of long texts fits many times over.
//   - maxErrors (20): errors listed in one answer, then one entry saying
//     how many were left out.
//
// A query over a bound is answered like any other invalid query: HTTP 200,
// "data": null and one error whose message names the bound, never a partial
// answer. Fields and depth are checked before validation and before any
// page is read; the answer is measured while it is built.
//
// These bounds are meant to outlive this hand-written executor: when a
// GraphQL library and AppSync replace it, the constants move with the schema
// and are enforced there. graphql-go's MaxDepth option takes maxQueryDepth
// and AppSync's queryDepthLimit likewise; AppSync's resolverCountLimit bounds
// resolved fields where maxQueryFields bounds selections. Field counting,
// the answer size and the error count need a small check around the
// library's execute call (count the selections of the parsed document,
// measure the encoded answer), and the request size a MaxBytesReader in
// front of it. Introspection, which the library will serve, is the one
// query that needs more: the standard introspection query selects far more
// than 16 fields about 13 levels deep, so exempt __schema and __type from
// the field and depth bounds (and keep it under maxAnswerBytes) rather than
// raise the bounds for everyone. maxNesting and maxTokens bound this
// parser's recursion and work and go away with it.
//
// # Read token
//
// Spec §6: the content service is read with a static read token. When
// Options.ReadToken is set, every request must carry "Authorization: Bearer
// <token>"; others get a GraphQL error with HTTP 401.
package content
