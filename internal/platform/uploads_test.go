package platform

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/rs/zerolog"

	"tenger/internal/httpapi"
	"tenger/internal/upload"
	"tenger/internal/upload/diskstore"
	"tenger/internal/upload/s3store"
)

// `tenger serve` keeps uploads under the data directory, and its profile
// area serves the upload routes.
func TestLocalUploads(t *testing.T) {
	dir := t.TempDir()
	l, err := OpenLocal(dir, Config{}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	if _, ok := l.UploadFiles.(*diskstore.Store); !ok {
		t.Fatalf("local upload storage %T", l.UploadFiles)
	}
	svc := l.Uploads()
	if svc == nil || svc.MaxBytes() != upload.DefaultMaxBytes || l.Uploads() != svc {
		t.Fatal("upload service not built once with the default limit")
	}
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 3))); err != nil {
		t.Fatal(err)
	}
	m, err := svc.Accept(context.Background(), "10000001", upload.PurposeImage, &b)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "uploads", m.ID))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stored file: %v %v", fi, err)
	}
	if !serves(l.ProfileArea(), httpapi.PathUploadImg, httpapi.PathUploadImgAuth, httpapi.PathUploadFile) {
		t.Fatal("the profile area does not serve the upload routes")
	}
}

// In AWS the bucket comes from $UPLOADS_BUCKET, with Lambda's file limit;
// without it there is no upload service and no upload route.
func TestAWSUploads(t *testing.T) {
	d := &Deps{Log: zerolog.Nop()}
	t.Setenv(EnvUploadsBucket, "")
	d.uploadFilesFromEnv(aws.Config{Region: "ap-east-1"})
	if d.UploadFiles != nil || d.Uploads() != nil || serves(d.uploadRouters(nil), httpapi.PathUploadImg) {
		t.Fatal("uploads without a bucket")
	}

	d = &Deps{Log: zerolog.Nop()}
	t.Setenv(EnvUploadsBucket, "tenger-uploads")
	t.Setenv(EnvUploadsKMSKey, "alias/uploads")
	d.uploadFilesFromEnv(aws.Config{Region: "ap-east-1"})
	if _, ok := d.UploadFiles.(*s3store.Store); !ok {
		t.Fatalf("AWS upload storage %T", d.UploadFiles)
	}
	if svc := d.Uploads(); svc == nil || svc.MaxBytes() != upload.LambdaMaxBytes {
		t.Fatal("AWS upload service not built with Lambda's limit")
	}
	if !serves(d.uploadRouters(nil), httpapi.PathUploadImg, httpapi.PathUploadImgAuth, httpapi.PathUploadFile) {
		t.Fatal("no upload routes with a bucket")
	}
}

func serves(routers []*httpapi.Router, paths ...string) bool {
	have := map[string]bool{}
	for _, r := range routers {
		for _, rt := range r.Routes() {
			have[rt.Path] = true
		}
	}
	for _, p := range paths {
		if !have[p] {
			return false
		}
	}
	return true
}
