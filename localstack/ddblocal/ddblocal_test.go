package ddblocal

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func TestEndpointAnswersListTables(t *testing.T) {
	ep := Endpoint(t)
	if !Reachable(ep) {
		t.Fatalf("endpoint %s not reachable", ep)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := NewClient(ctx, ep).ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("ListTables via NewClient: %v", err)
	}
}

func TestReachableRejectsDeadEndpoint(t *testing.T) {
	if Reachable("http://127.0.0.1:1") {
		t.Fatal("port 1 reported reachable")
	}
}

func TestRepoRootFindsGoMod(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if root == "" || root == "/" {
		t.Fatalf("repo root %q", root)
	}
}
