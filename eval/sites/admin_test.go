package sites

import (
	"net/url"
	"strings"
	"testing"
)

func TestAdminListSortFilterPages(t *testing.T) {
	t.Parallel()
	a := NewAdmin()
	c := serve(t, a)
	_, body := c.get("/users")
	mustContain(t, "page 1", body, "Page 1 of 4 (35 users)", "Aisha Khan", "Erik Lund", `aria-label="Page 2"`, "Next page")
	mustNotContain(t, "page 1", body, "Farid Rahman", "Previous page")
	if n := strings.Count(body, "<tr data-id="); n != AdminPageSize {
		t.Errorf("page 1 has %d rows", n)
	}
	_, body = c.get("/users?sort=name&dir=asc&page=3")
	mustContain(t, "page 3", body, "Priya Patel", "Previous page", "Next page")
	_, body = c.get("/users?sort=name&dir=asc&page=4")
	if n := strings.Count(body, "<tr data-id="); n != 5 {
		t.Errorf("page 4 has %d rows", n)
	}
	mustNotContain(t, "page 4", body, "Next page")

	_, body = c.get("/users?sort=joined&dir=desc")
	if i, j := strings.Index(body, "Ivan Horvat"), strings.Index(body, "Hana Yamamoto"); i < 0 || j < 0 || i > j {
		t.Error("joined desc: Ivan Horvat (newest) should come first")
	}
	mustContain(t, "sort links", body, `aria-sort="descending"`, `href="/users?dir=asc&amp;sort=joined"`)

	_, body = c.get("/users?q=editor")
	mustContain(t, "filter editor", body, "Page 1 of 1 (10 users)")
	_, body = c.get("/users?q=zzz")
	mustContain(t, "filter none", body, "No users match")
}

func TestAdminEdit(t *testing.T) {
	t.Parallel()
	a := NewAdmin()
	c := serve(t, a)
	_, body := c.get("/users/16/edit?return=%2Fusers%3Fpage%3D3")
	mustContain(t, "edit form", body, "Edit user: Priya Patel", `<option value="viewer" selected>Viewer</option>`, `id="active" name="active" value="yes" checked`)

	code, _, body := c.post("/users/16", url.Values{"name": {""}, "email": {"aisha.khan@example.org"}, "role": {"boss"}})
	if code != 422 {
		t.Errorf("invalid save: %d", code)
	}
	mustContain(t, "invalid save", body, "Name cannot be empty.", "already used by Aisha Khan", "Choose a role.")

	_, final, body := c.post("/users/16", url.Values{"name": {"Priya Patel"}, "email": {"priya.patel@example.org"}, "role": {"editor"}, "return": {"/users?page=3"}})
	if final != "/users?page=3" {
		t.Errorf("save went to %s", final)
	}
	mustContain(t, "after save", body, "Saved changes to Priya Patel.")
	u := a.Users()[15]
	if u.Role != "editor" || u.Active {
		t.Fatalf("user = %+v", u)
	}
	if e := a.Edits(); len(e) != 1 || e[0].UserID != 16 || strings.Join(e[0].Changed, ",") != "role,active" {
		t.Fatalf("edits = %+v", e)
	}

	_, _, body = c.post("/users/new", url.Values{"name": {"Nina Ross"}, "email": {"nina.ross@example.org"}, "role": {"viewer"}, "active": {"yes"}})
	mustContain(t, "after create", body, "Created Nina Ross.", "(36 users)")
	if u := a.Users()[35]; u.ID != 36 || u.Name != "Nina Ross" || !u.Active {
		t.Fatalf("new user = %+v", u)
	}
}
