// Package upload accepts the files users send for identity and corporate
// verification and other image fields (spec §7: /common/upload_img and
// /common/upload_img_auth?imageType=), checks them, stores them and lets
// only their owner, and the review tooling, read them back.
//
// A file is trusted for nothing it says about itself: its type is read
// from its bytes (Sniff), its size is bounded while it is read, images are
// decoded and re-encoded so only their pixels are kept, and PDFs are
// refused when they carry anything active (Check). The bytes go to a
// Storage adapter under a random id (diskstore locally, s3store in AWS);
// the metadata goes to the store in the owner's partition, so "is this
// upload this user's" is one read of one key.
//
// Items:
//
//	USER#<uid> / UPLOAD#<id>   purpose, ct (content type), size, sha256, osize, osha256
//	                           (the file as sent), w, h (pixels; 0 for a PDF), ctime (ms)
//
// Rate-limit items (RL#upload:<uid>) belong to package ratelimit.
package upload

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/ratelimit"
	"tenger/internal/store"
)

// Purpose says what an upload is for; it decides the kinds it may be and
// lets the verification code ask for the right kind of document.
type Purpose string

// Purposes, with the imageType of /common/upload_img_auth that names each
// verification purpose.
const (
	// PurposeImage is /common/upload_img: an image for other fields of the
	// site (a support question's screenshot). JPEG or PNG.
	PurposeImage Purpose = "image"
	// PurposeIdentityDocument (imageType=1) is a page of an identity
	// document for individual verification (KYC): a passport's photo page,
	// either side of an ID card or driving licence, one side per upload.
	// JPEG, PNG or PDF.
	PurposeIdentityDocument Purpose = "identity_document"
	// PurposeCorporateDocument (imageType=2, what the web app sends) is a
	// document of corporate verification: certificate of registration,
	// articles, proof of address, a director's or owner's identity
	// document. JPEG, PNG or PDF.
	PurposeCorporateDocument Purpose = "corporate_document"
	// PurposeIdentitySelfie (imageType=3) is a photo of the person holding
	// their identity document, for individual verification. JPEG or PNG.
	PurposeIdentitySelfie Purpose = "identity_selfie"
)

// imageTypes maps upload_img_auth's imageType to its purpose.
var imageTypes = map[int64]Purpose{
	1: PurposeIdentityDocument,
	2: PurposeCorporateDocument,
	3: PurposeIdentitySelfie,
}

// ImageTypesDoc describes the imageType values (for the API's documents).
const ImageTypesDoc = "1 identity document page (KYC: passport photo page, ID card or driving licence side; JPEG, PNG or PDF), " +
	"2 corporate verification document (registration certificate, articles, proof of address, a director's identity document; JPEG, PNG or PDF), " +
	"3 selfie holding the identity document (KYC; JPEG or PNG)"

// PurposeOfImageType is the purpose of an imageType value.
func PurposeOfImageType(n int64) (Purpose, bool) {
	p, ok := imageTypes[n]
	return p, ok
}

// ImageType is the imageType value of a verification purpose (0 for
// PurposeImage, which has none).
func (p Purpose) ImageType() int64 {
	for n, q := range imageTypes {
		if q == p {
			return n
		}
	}
	return 0
}

// Kinds are the kinds of file the purpose takes.
func (p Purpose) Kinds() []Kind {
	switch p {
	case PurposeIdentityDocument, PurposeCorporateDocument:
		return []Kind{KindJPEG, KindPNG, KindPDF}
	case PurposeImage, PurposeIdentitySelfie:
		return []Kind{KindJPEG, KindPNG}
	}
	return nil
}

// Limits of the service.
const (
	// DefaultMaxBytes is the largest file accepted (`tenger serve`).
	DefaultMaxBytes = 10 << 20
	// LambdaMaxBytes is the largest file accepted by the AWS functions:
	// Lambda takes at most 6 MB of request event, in which API Gateway
	// sends a multipart body base64-encoded (4/3 of its size) beside the
	// headers, so 4 MiB leaves room for both; a larger body never reaches
	// the function (API Gateway answers 413 itself).
	LambdaMaxBytes = 4 << 20
	// UploadsPerHour is how many files one user may send in an hour,
	// refused ones included (each costs a decode).
	UploadsPerHour = 30
	// DefaultDecodes is how many files one process checks at once: a
	// decode can take a few hundred megabytes (DefaultLimits), so a burst
	// of uploads waits rather than exhausts memory.
	DefaultDecodes = 2
	// listPage is the page size of List's queries.
	listPage = 100
)

// Meta describes a stored upload.
type Meta struct {
	ID      string  `json:"id"`
	Owner   string  `json:"-"`
	Purpose Purpose `json:"purpose"`
	// ContentType is the stored file's type (image/jpeg, image/png,
	// application/pdf), decided from its bytes.
	ContentType string `json:"contentType"`
	// Size and SHA256 are the stored file's (after re-encoding).
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// OriginalSize and OriginalSHA256 are the file's as sent, so a
	// reviewer can tell two uploads of one original apart from two
	// documents.
	OriginalSize   int64  `json:"originalSize"`
	OriginalSHA256 string `json:"originalSha256"`
	// Width and Height are an image's pixels (0 for a PDF).
	Width  int `json:"width"`
	Height int `json:"height"`
	// CreatedAt is Unix milliseconds.
	CreatedAt int64 `json:"createdAt"`
}

// Kind is the kind of the stored file.
func (m Meta) Kind() Kind {
	switch m.ContentType {
	case KindJPEG.ContentType():
		return KindJPEG
	case KindPNG.ContentType():
		return KindPNG
	case KindPDF.ContentType():
		return KindPDF
	}
	return KindUnknown
}

// Options configure a Service.
type Options struct {
	Store store.Store
	Files Storage
	Now   func() time.Time
	Log   zerolog.Logger
	// MaxBytes bounds a file (default DefaultMaxBytes).
	MaxBytes int64
	// Limits bound images and PDFs (default DefaultLimits).
	Limits *Limits
	// PerHour is how many uploads a user may send an hour (default
	// UploadsPerHour).
	PerHour int
	// Decodes is how many files are checked at once (default
	// DefaultDecodes).
	Decodes int
}

// Service accepts, stores and reads back uploads.
type Service struct {
	o       Options
	lim     Limits
	limiter *ratelimit.Limiter
	slots   chan struct{}
}

// New returns a Service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.PerHour <= 0 {
		o.PerHour = UploadsPerHour
	}
	if o.Decodes <= 0 {
		o.Decodes = DefaultDecodes
	}
	lim := DefaultLimits
	if o.Limits != nil {
		lim = *o.Limits
	}
	return &Service{o: o, lim: lim, limiter: ratelimit.New(o.Store, o.Now), slots: make(chan struct{}, o.Decodes)}
}

// MaxBytes is the largest file the service accepts.
func (s *Service) MaxBytes() int64 { return s.o.MaxBytes }

func metaKey(uid, id string) store.Key { return store.Key{PK: "USER#" + uid, SK: "UPLOAD#" + id} }

// Accept reads one file from r for the user uid, checks it for purpose
// and stores it. The rate limit is counted first, then at most MaxBytes
// are read (one byte more tells a larger file, which is refused without
// reading the rest). Errors are the catalogue's (Check's, and
// CodeUploadTooLarge, CodeTooManyRequests); an error r returns that is
// already a catalogue error is returned as it is, any other read error
// is CodeUploadCorrupt (the upload was cut off).
func (s *Service) Accept(ctx context.Context, uid string, purpose Purpose, r io.Reader) (Meta, error) {
	kinds := purpose.Kinds()
	if uid == "" || kinds == nil {
		return Meta{}, fmt.Errorf("upload: accept for user %q, purpose %q", uid, purpose)
	}
	d, err := s.limiter.Allow(ctx, "upload:"+uid, s.o.PerHour, time.Hour)
	if err != nil {
		return Meta{}, err
	}
	if !d.Allowed {
		sec := d.RetryAfterSeconds()
		return Meta{}, apperr.New(apperr.CodeTooManyRequests, sec).WithData(struct {
			RetryAfter int `json:"retryAfter"`
		}{sec})
	}
	data, err := io.ReadAll(io.LimitReader(r, s.o.MaxBytes+1))
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return Meta{}, ae
		}
		return Meta{}, apperr.New(apperr.CodeUploadCorrupt).WithCause(err)
	}
	if int64(len(data)) > s.o.MaxBytes {
		return Meta{}, s.TooLarge()
	}
	checked, err := s.check(ctx, data, kinds)
	if err != nil {
		return Meta{}, err
	}
	sum, osum := sha256.Sum256(checked.Data), sha256.Sum256(data)
	m := Meta{ID: NewID(), Owner: uid, Purpose: purpose, ContentType: checked.Kind.ContentType(),
		Size: int64(len(checked.Data)), SHA256: hex.EncodeToString(sum[:]),
		OriginalSize: int64(len(data)), OriginalSHA256: hex.EncodeToString(osum[:]),
		Width: checked.Width, Height: checked.Height, CreatedAt: s.o.Now().UnixMilli()}
	// The file first, then its metadata: a crash between the two leaves a
	// file nobody can name (harmless), never metadata without its file.
	if err := s.o.Files.Put(ctx, m.ID, m.ContentType, checked.Data); err != nil {
		return Meta{}, fmt.Errorf("upload: store file: %w", err)
	}
	k := metaKey(uid, m.ID)
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "purpose": string(m.Purpose), "ct": m.ContentType,
		"size": m.Size, "sha256": m.SHA256, "osize": m.OriginalSize, "osha256": m.OriginalSHA256,
		"w": int64(m.Width), "h": int64(m.Height), "ctime": m.CreatedAt}
	if err := s.o.Store.Put(ctx, it, store.ItemNotExists()); err != nil {
		if derr := s.o.Files.Delete(context.WithoutCancel(ctx), m.ID); derr != nil {
			s.o.Log.Warn().Err(derr).Str("upload", m.ID).Msg("upload: file of a failed upload not deleted")
		}
		return Meta{}, fmt.Errorf("upload: store metadata: %w", err)
	}
	s.o.Log.Info().Str("uid", uid).Str("upload", m.ID).Str("purpose", string(purpose)).Str("type", m.ContentType).
		Int64("size", m.Size).Msg("upload stored")
	return m, nil
}

// TooLarge is the error of a file over MaxBytes (the HTTP layer answers
// it too when the request body itself is over the limit). The message
// names the limit in whole megabytes, rounded up.
func (s *Service) TooLarge() error {
	return apperr.New(apperr.CodeUploadTooLarge, (s.o.MaxBytes+1<<20-1)>>20)
}

// check runs Check when a decode slot is free, so at most Decodes files
// are decoded at once.
func (s *Service) check(ctx context.Context, data []byte, kinds []Kind) (Checked, error) {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return Checked{}, ctx.Err()
	}
	defer func() { <-s.slots }()
	return Check(data, kinds, s.lim)
}

// Meta returns the metadata of the user's upload id, or
// CodeUploadNotFound when uid has no such upload (whether or not another
// user has).
func (s *Service) Meta(ctx context.Context, uid, id string) (Meta, error) {
	if uid == "" || !ValidKey(id) {
		return Meta{}, apperr.New(apperr.CodeUploadNotFound)
	}
	it, err := s.o.Store.Get(ctx, metaKey(uid, id))
	if errors.Is(err, store.ErrNotFound) {
		return Meta{}, apperr.New(apperr.CodeUploadNotFound)
	}
	if err != nil {
		return Meta{}, err
	}
	return metaOf(uid, it), nil
}

func metaOf(uid string, it store.Item) Meta {
	return Meta{ID: strings.TrimPrefix(it.Str(store.AttrSK), "UPLOAD#"), Owner: uid, Purpose: Purpose(it.Str("purpose")),
		ContentType: it.Str("ct"), Size: it.Int("size"), SHA256: it.Str("sha256"),
		OriginalSize: it.Int("osize"), OriginalSHA256: it.Str("osha256"),
		Width: int(it.Int("w")), Height: int(it.Int("h")), CreatedAt: it.Int("ctime")}
}

// Owned is the owner check the verification code runs before it
// attaches an upload to an application: the upload id is uid's and has
// one of the purposes (any purpose when none are given). Anything else is
// CodeUploadNotFound, as it is to the user.
func (s *Service) Owned(ctx context.Context, uid, id string, purposes ...Purpose) (Meta, error) {
	m, err := s.Meta(ctx, uid, id)
	if err != nil {
		return Meta{}, err
	}
	if len(purposes) > 0 {
		ok := false
		for _, p := range purposes {
			ok = ok || m.Purpose == p
		}
		if !ok {
			return Meta{}, apperr.New(apperr.CodeUploadNotFound)
		}
	}
	return m, nil
}

// List returns the user's uploads, oldest first.
func (s *Service) List(ctx context.Context, uid string) ([]Meta, error) {
	var out []Meta
	q := store.Query{PK: "USER#" + uid, SK: store.SKPrefixed("UPLOAD#"), Limit: listPage}
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			out = append(out, metaOf(uid, it))
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// Download is how a client gets an upload's bytes: from URL directly
// (S3's presigned GET) or, when URL is empty, from Body, which the
// caller closes.
type Download struct {
	Meta Meta
	URL  string
	Body io.ReadCloser
}

// Disposition is the Content-Disposition an upload is served with: shown
// in the browser, under a name made of its id (never one the user gave).
func (m Meta) Disposition() string {
	return `inline; filename="` + m.ID + "." + m.Kind().Ext() + `"`
}

// Download lets the user uid read their own upload id; any other id is
// CodeUploadNotFound.
func (s *Service) Download(ctx context.Context, uid, id string) (Download, error) {
	m, err := s.Meta(ctx, uid, id)
	if err != nil {
		return Download{}, err
	}
	url, err := s.o.Files.ReadURL(ctx, m.ID, ReadHeaders{ContentType: m.ContentType, Disposition: m.Disposition()})
	if err != nil {
		return Download{}, err
	}
	if url != "" {
		return Download{Meta: m, URL: url}, nil
	}
	body, err := s.open(ctx, m)
	if err != nil {
		return Download{}, err
	}
	return Download{Meta: m, Body: body}, nil
}

// OpenForReview is the review tooling's read (KYC and corporate
// verification reviews): the upload id of owner, whose application the
// reviewer is looking at, with its bytes; the caller closes the reader.
// Every read is logged with the reviewer, so access to identity documents
// can be audited. It answers CodeUploadNotFound when owner has no such
// upload, as the owner's own read does.
func (s *Service) OpenForReview(ctx context.Context, reviewer, owner, id string) (Meta, io.ReadCloser, error) {
	if reviewer == "" {
		return Meta{}, nil, errors.New("upload: review read without a reviewer")
	}
	m, err := s.Meta(ctx, owner, id)
	if err != nil {
		return Meta{}, nil, err
	}
	body, err := s.open(ctx, m)
	if err != nil {
		return Meta{}, nil, err
	}
	s.o.Log.Info().Str("reviewer", reviewer).Str("uid", owner).Str("upload", id).Str("purpose", string(m.Purpose)).
		Msg("upload read for review")
	return m, body, nil
}

// open reads a file whose metadata exists; its absence from Storage is
// an inconsistency (an internal error), not the user's not-found.
func (s *Service) open(ctx context.Context, m Meta) (io.ReadCloser, error) {
	body, err := s.o.Files.Open(ctx, m.ID)
	if err != nil {
		return nil, fmt.Errorf("upload: open %s of %s: %w", m.ID, m.Owner, err)
	}
	return body, nil
}
