package platform

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/corporate"
	"tenger/internal/httpapi"
	"tenger/internal/store"
	"tenger/internal/upload"
)

// `tenger serve` serves corporate verification in the profile area, and
// its step 4 takes only the user's own uploaded documents, checked by the
// upload service.
func TestLocalCorporateAttachments(t *testing.T) {
	l, err := OpenLocal(t.TempDir(), Config{}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	if !serves(l.ProfileArea(), httpapi.PathCorpGetBaseInfo, httpapi.PathCorpSaveBaseInfo, httpapi.PathCorpStatus,
		httpapi.PathCorpCompanyUser, httpapi.PathCorpAttachment, httpapi.PathCorpConfirm, httpapi.PathCorpToRegular) {
		t.Fatal("the profile area does not serve the corporate verification calls")
	}
	ctx := context.Background()
	accept := func(uid string, p upload.Purpose) string {
		t.Helper()
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
			t.Fatal(err)
		}
		m, err := l.Uploads().Accept(ctx, uid, p, &b)
		if err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	for _, uid := range []string{"10000001", "10000002"} {
		if err := l.Store.Put(ctx, store.Item{store.AttrPK: "USER#" + uid, store.AttrSK: "PROFILE", "uid": uid, "accountType": "regular"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	own := accept("10000001", upload.PurposeCorporateDocument)
	others := accept("10000002", upload.PurposeCorporateDocument)
	picture := accept("10000001", upload.PurposeImage)
	svc := l.Corporate()
	attach := func(id string) error {
		_, err := svc.SaveDocuments(ctx, "10000001", corporate.Documents{Files: []corporate.File{{Kind: corporate.DocIncorporation, UploadID: id}}})
		return err
	}
	if err := attach(own); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{others, picture, "0123456789abcdef0123456789abcdef"} {
		var ae *apperr.Error
		if err := attach(id); !errors.As(err, &ae) || ae.Entry.Code != apperr.CodeCorpUploadNotFound {
			t.Fatalf("attaching %s: %v", id, err)
		}
	}
	v, err := svc.Get(ctx, "10000001")
	if err != nil || len(v.Documents.Files) != 1 || v.Documents.Files[0].UploadID != own {
		t.Fatalf("attached %+v %v", v.Documents, err)
	}
}
