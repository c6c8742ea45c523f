package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/rs/zerolog"

	"tenger/internal/content"
	"tenger/internal/store"
)

// newHandler loads the compiled-in page texts into the store (one manifest
// read when nothing changed, so warm deploys pay almost nothing) and returns
// the content service's GraphQL handler, the one `tenger serve` mounts at
// /graphql. CORS is the HTTP API's job (API Gateway answers preflights and
// overrides integration CORS headers), so the handler sends none.
func newHandler(ctx context.Context, st store.Store, readToken string, log zerolog.Logger) (http.Handler, error) {
	if _, err := content.Load(ctx, st, content.Texts()); err != nil {
		return nil, fmt.Errorf("content: load page texts: %w", err)
	}
	svc := content.New(st, content.Options{ReadToken: readToken, Logger: &log})
	return svc.Handler(), nil
}
