package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
)

// TestGraphQLSampleEvent loads the texts into DynamoDB Local and answers the
// recorded POST /graphql event; the lan cookie (mn_MN) picks the locale.
func TestGraphQLSampleEvent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "content-fn")
	// The cold start loads the texts as main does, in the function's
	// process: its calls are the content function's (fntest.Table checks
	// them against its key space), as are the request's below.
	rt := awslambda.NewRuntime("content", io.Discard)
	cold, _ := rt.Begin(ctx, "cold-start")
	h, err := newHandler(cold, st, "", zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "http_graphql_content.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	resp, err := rt.HTTP(h)(ctx, ev)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d: %v %s", resp.StatusCode, err, resp.Body)
	}
	var out struct {
		Data struct {
			Page struct {
				ID           string
				Locale       string
				Translations map[string]any
			}
		}
		Errors []any
	}
	if err := json.Unmarshal([]byte(resp.Body), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Errors) != 0 || out.Data.Page.ID != "home" || out.Data.Page.Locale != "mn-MN" || len(out.Data.Page.Translations) == 0 {
		t.Errorf("answer = %s", resp.Body)
	}
}

// TestGraphQLAliasesRefused sends the recorded event with the outside test's
// query, 100 aliases of one page, through the Lambda runtime: the answer is
// one short GraphQL error with status 200, not 100 copies of the page.
func TestGraphQLAliasesRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "content-fn-limits")
	h, err := newHandler(ctx, st, "", zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "http_graphql_content.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	var q strings.Builder
	q.WriteString("{")
	for i := range 100 {
		q.WriteString(" p" + strconv.Itoa(i) + `: page(id: "trade") { id locale translations }`)
	}
	q.WriteString(" }")
	body, _ := json.Marshal(map[string]string{"query": q.String()})
	ev.Body, ev.IsBase64Encoded = string(body), false
	resp, err := awslambda.NewRuntime("content", io.Discard).HTTP(h)(ctx, ev)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d: %v %s", resp.StatusCode, err, resp.Body)
	}
	var out struct {
		Data   any
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal([]byte(resp.Body), &out); err != nil {
		t.Fatal(err)
	}
	if out.Data != nil || len(out.Errors) != 1 || !strings.Contains(out.Errors[0].Message, "at most 16") || len(resp.Body) > 1024 {
		t.Errorf("%d-byte answer to a %d-byte request: %.300s", len(resp.Body), len(body), resp.Body)
	}
}
