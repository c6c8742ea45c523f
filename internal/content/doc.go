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
// request itself is malformed (not JSON, no query).
//
// # Read token
//
// Spec §6: the content service is read with a static read token. When
// Options.ReadToken is set, every request must carry "Authorization: Bearer
// <token>"; others get a GraphQL error with HTTP 401.
package content
