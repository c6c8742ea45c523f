package content

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bounds on what one GraphQL request may cost, in one place so that they
// outlive this hand-written implementation (see "Limits" in the package
// documentation for how each one carries over to a GraphQL library and to
// AppSync). Each sits well above what the web app sends: one query,
//
//	query($id:String!,$locale:String!){ page(id:$id, locale:$locale){ id locale translations } }
//
// of about 90 bytes, selecting 4 fields 2 levels deep, whose largest answer
// (the Mongolian trade page) is about 11 KB. TestLimitsLeaveRoomForTheApp
// holds the app's query and every compiled-in page to these bounds with a
// fourfold margin.
const (
	// maxRequestBytes bounds the request: the POST body, the GET query string
	// and the query text handed to Service.Execute. The app's request body is
	// under 200 bytes; the bound leaves room for any hand-written query while
	// capping what the lexer ever reads.
	maxRequestBytes = 64 << 10

	// maxQueryFields bounds the field selections of the executed operation,
	// counting every alias and every repeat of a field once, since each alias
	// of page is one more store read and one more page of text in the answer
	// (100 aliases of page once answered 686 KB to a 3.7 KB request). The
	// app selects 4; 16 lets a client fetch a few pages in one request.
	maxQueryFields = 16

	// maxQueryDepth bounds how deep fields nest, the root fields being at
	// depth 1. The schema itself is 2 deep (page, then its fields); 8 leaves
	// room for a nested type in a later schema.
	maxQueryDepth = 8

	// maxAnswerBytes bounds the JSON answer (data, or the list of errors).
	// It is a backstop behind maxQueryFields for pages whose texts are long:
	// 256 KiB is over twenty times the largest page today, so a long legal
	// text in Mongolian still fits in a single-page answer, while no query can
	// make the service build and send megabytes.
	maxAnswerBytes = 256 << 10

	// maxErrors bounds the errors listed in one answer, as graphql-js does
	// with its validation error limit: a request of thousands of unused
	// variables or unknown arguments would otherwise be answered with one
	// message each. The rest are summed up in one closing entry.
	maxErrors = 20
)

// Bounds of the hand-written parser itself, which go away with it: the
// parser is recursive, so nesting (of selections, list and object values and
// type references alike) is bounded, and the number of tokens bounds the
// work per request.
const (
	maxNesting = 16
	maxTokens  = 4096
)

// checkQueryCost applies maxQueryFields and maxQueryDepth to the operation
// about to run, before validation, so that an oversized query is answered
// with one short error rather than an error (or a page) per field.
func checkQueryCost(op *operation) *GraphQLError {
	var (
		fields                  int
		depth                   int
		firstOver, firstTooDeep *field
	)
	var walk func(sel []*field, level int)
	walk = func(sel []*field, level int) {
		for _, f := range sel {
			fields++
			if fields == maxQueryFields+1 {
				firstOver = f
			}
			if level > depth {
				depth = level
			}
			if level == maxQueryDepth+1 && firstTooDeep == nil {
				firstTooDeep = f
			}
			walk(f.sel, level+1)
		}
	}
	walk(op.sel, 1)
	if firstOver != nil {
		return &GraphQLError{
			Message: fmt.Sprintf("Query selects %d fields; this service allows at most %d in one query, counting every alias and repeated field. Ask for fewer pages or fields per request.",
				fields, maxQueryFields),
			Locations: []Location{firstOver.loc},
		}
	}
	if firstTooDeep != nil {
		return &GraphQLError{
			Message:   fmt.Sprintf("Query nests fields %d levels deep; this service allows at most %d.", depth, maxQueryDepth),
			Locations: []Location{firstTooDeep.loc},
		}
	}
	return nil
}

// answerTooLarge is the whole answer to a query whose result would exceed
// maxAnswerBytes: one short error, never a partial answer.
func answerTooLarge() Response {
	return errorResponse(fmt.Sprintf("The answer to this query would be larger than %d bytes, the most this service sends. Ask for fewer pages or fields per request.", maxAnswerBytes))
}

// boundAnswer applies maxErrors and maxAnswerBytes to a finished response.
func boundAnswer(resp Response) Response {
	if n := len(resp.Errors); n > maxErrors {
		resp.Errors = append(resp.Errors[:maxErrors:maxErrors], GraphQLError{
			Message: fmt.Sprintf("%d more errors were left out; this service lists at most %d.", n-maxErrors, maxErrors),
		})
	}
	size := len(resp.Data)
	if len(resp.Errors) > 0 {
		b, _ := json.Marshal(resp.Errors) // strings, numbers and names only: it cannot fail
		size += len(b)
	}
	if size > maxAnswerBytes {
		return answerTooLarge()
	}
	return resp
}

// printableMessage escapes the characters of an error message that a
// terminal, a log viewer or a web page could act on rather than show:
// control characters, bidirectional and other format characters, and bytes
// that are not UTF-8. Messages quote what the caller sent (a page id, an
// operation name), so without this a caller could make the service answer
// with raw escape sequences. Each such character becomes its Go escape
// (\x1b, \u202e), as strconv.Quote writes it; printable text in any script is
// kept as it is.
func printableMessage(s string) string {
	var b strings.Builder
	escaped := false // whether b holds the text so far
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := (r == utf8.RuneError && size == 1) || !unicode.IsPrint(r)
		if bad && !escaped {
			b.WriteString(s[:i])
			escaped = true
		}
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case bad:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		case escaped:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	if !escaped {
		return s
	}
	return b.String()
}
