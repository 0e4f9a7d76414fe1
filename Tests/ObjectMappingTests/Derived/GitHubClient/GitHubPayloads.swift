/// GitHub REST API payloads for `GitHubClientTests`, written after the API's documented
/// responses (issue 41): snake_case keys, nested objects, ISO 8601 dates, `null` for absent
/// values, members neither client reads, and events whose `payload` depends on their `type`.
enum GitHubPayloads {
  static let octocat = """
    {"login": "octocat", "id": 1, "node_id": "MDQ6VXNlcjE=",
     "avatar_url": "https://github.com/images/error/octocat_happy.gif", "gravatar_id": "",
     "url": "https://api.github.com/users/octocat", "html_url": "https://github.com/octocat",
     "type": "User", "site_admin": false}
    """

  static let hubot = """
    {"login": "hubot", "id": 2, "node_id": "MDQ6VXNlcjI=",
     "avatar_url": "https://github.com/images/error/hubot_happy.gif", "gravatar_id": "",
     "url": "https://api.github.com/users/hubot", "html_url": "https://github.com/hubot",
     "type": "Bot", "site_admin": true}
    """

  static let bug = """
    {"id": 208045946, "node_id": "MDU6TGFiZWwyMDgwNDU5NDY=",
     "url": "https://api.github.com/repos/octocat/Hello-World/labels/bug", "name": "bug",
     "description": "Something isn't working", "color": "f29513", "default": true}
    """

  static let triage = """
    {"id": 208045947, "node_id": "MDU6TGFiZWwyMDgwNDU5NDc=",
     "url": "https://api.github.com/repos/octocat/Hello-World/labels/triage", "name": "triage",
     "description": null, "color": "ededed", "default": false}
    """

  static let labels = "[\(bug), \(triage)]"

  static let milestone = """
    {"url": "https://api.github.com/repos/octocat/Hello-World/milestones/1",
     "html_url": "https://github.com/octocat/Hello-World/milestones/v1.0", "id": 1002604,
     "node_id": "MDk6TWlsZXN0b25lMTAwMjYwNA==", "number": 1, "state": "open", "title": "v1.0",
     "description": "Tracking milestone for version 1.0", "creator": \(octocat),
     "open_issues": 4, "closed_issues": 8, "created_at": "2011-04-10T20:09:31Z",
     "updated_at": "2014-03-03T18:58:10Z", "closed_at": null, "due_on": "2012-10-09T23:39:01Z"}
    """

  static let milestones = """
    [\(milestone), {"id": 1002605, "node_id": "MDk6TWlsZXN0b25lMTAwMjYwNQ==", "number": 2,
     "state": "closed", "title": "v0.9", "description": null, "creator": \(hubot),
     "open_issues": 0, "closed_issues": 12, "created_at": "2010-11-02T08:00:00Z",
     "updated_at": "2011-01-01T00:00:00Z", "closed_at": "2011-01-01T00:00:00Z", "due_on": null}]
    """

  static let repository = """
    {"id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "name": "Hello-World",
     "full_name": "octocat/Hello-World", "owner": \(octocat), "private": false,
     "html_url": "https://github.com/octocat/Hello-World",
     "description": "This your first repo!", "fork": false,
     "url": "https://api.github.com/repos/octocat/Hello-World", "homepage": "https://github.com",
     "language": null, "forks_count": 9, "stargazers_count": 80, "watchers_count": 80,
     "size": 108, "default_branch": "master", "open_issues_count": 0, "is_template": false,
     "topics": ["octocat", "atom", "electron", "api"], "has_issues": true,
     "archived": false, "disabled": false, "visibility": "public",
     "pushed_at": "2011-01-26T19:06:43Z", "created_at": "2011-01-26T19:01:12Z",
     "updated_at": "2011-01-26T19:14:43Z",
     "license": {"key": "mit", "name": "MIT License", "spdx_id": "MIT",
                 "url": "https://api.github.com/licenses/mit", "node_id": "MDc6TGljZW5zZW1pdA=="}}
    """

  static let forkedRepository = """
    {"id": 1300192, "node_id": "MDEwOlJlcG9zaXRvcnkxMzAwMTky", "name": "Spoon-Knife",
     "full_name": "hubot/Spoon-Knife", "owner": \(hubot), "private": true,
     "html_url": "https://github.com/hubot/Spoon-Knife", "description": null, "fork": true,
     "language": "HTML", "forks_count": 0, "stargazers_count": 1, "watchers_count": 1,
     "default_branch": "main", "open_issues_count": 3, "topics": [],
     "pushed_at": null, "created_at": "2015-06-11T12:00:00Z", "license": null}
    """

  static let repositories = "[\(repository), \(forkedRepository)]"

  static let openIssue = """
    {"id": 1, "node_id": "MDU6SXNzdWUx", "url": "https://api.github.com/repos/octocat/Hello-World/issues/1347",
     "html_url": "https://github.com/octocat/Hello-World/issues/1347", "number": 1347,
     "state": "open", "title": "Found a bug", "body": "I'm having a problem with this.",
     "user": \(octocat), "labels": [\(bug), \(triage)], "assignee": \(hubot),
     "assignees": [\(hubot), \(octocat)], "milestone": \(milestone), "locked": true,
     "active_lock_reason": "too heated", "comments": 42,
     "pull_request": {"url": "https://api.github.com/repos/octocat/Hello-World/pulls/1347",
                      "html_url": "https://github.com/octocat/Hello-World/pull/1347"},
     "closed_at": null, "created_at": "2011-04-22T13:33:48Z",
     "updated_at": "2011-04-22T13:33:48Z", "author_association": "COLLABORATOR",
     "reactions": {"total_count": 5, "+1": 3, "-1": 0, "laugh": 0, "heart": 2}}
    """

  static let closedIssue = """
    {"id": 2, "node_id": "MDU6SXNzdWUy", "number": 1348, "state": "closed",
     "title": "Typo in the README", "body": null, "user": \(hubot), "labels": [],
     "assignee": null, "assignees": [], "milestone": null, "locked": false, "comments": 0,
     "closed_at": "2011-05-01T09:00:00Z", "created_at": "2011-04-30T10:00:00Z",
     "updated_at": "2011-05-01T09:00:00Z", "author_association": "NONE",
     "reactions": {"total_count": 0, "+1": 0, "-1": 0, "laugh": 0, "heart": 0}}
    """

  static let issues = "[\(openIssue), \(closedIssue)]"

  static let pullRequest = """
    {"url": "https://api.github.com/repos/octocat/Hello-World/pulls/1347", "id": 1,
     "node_id": "MDExOlB1bGxSZXF1ZXN0MQ==", "number": 1347, "state": "closed", "locked": false,
     "title": "Amazing new feature", "user": \(octocat), "body": "Please pull these awesome changes in!",
     "labels": [\(bug)], "milestone": \(milestone), "active_lock_reason": null,
     "created_at": "2011-01-26T19:01:12Z", "updated_at": "2011-01-26T19:01:12Z",
     "closed_at": "2011-01-26T19:01:12Z", "merged_at": "2011-01-26T19:01:12Z",
     "merge_commit_sha": "e5bd3914e2e596debea16f433f57875b5b90bcd6", "draft": false,
     "head": {"label": "octocat:new-topic", "ref": "new-topic",
              "sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e", "user": \(octocat),
              "repo": \(repository)},
     "base": {"label": "octocat:master", "ref": "master",
              "sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e", "user": \(octocat),
              "repo": \(repository)},
     "author_association": "OWNER", "merged": true, "mergeable": null, "comments": 10,
     "commits": 3, "additions": 100, "deletions": 3, "changed_files": 5}
    """

  static let draftPullRequest = """
    {"id": 2, "node_id": "MDExOlB1bGxSZXF1ZXN0Mg==", "number": 1350, "state": "open",
     "title": "WIP: faster search", "user": \(hubot), "body": null, "labels": [],
     "created_at": "2011-02-01T10:00:00Z", "updated_at": "2011-02-02T10:00:00Z",
     "closed_at": null, "merged_at": null, "merge_commit_sha": null, "draft": true,
     "head": {"ref": "faster-search", "sha": "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"},
     "base": {"ref": "master", "sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e",
              "repo": \(forkedRepository)},
     "merged": false, "additions": 12, "deletions": 0, "changed_files": 1}
    """

  static let pullRequests = "[\(pullRequest), \(draftPullRequest)]"

  static let comment = """
    {"id": 1, "node_id": "MDEyOklzc3VlQ29tbWVudDE=",
     "url": "https://api.github.com/repos/octocat/Hello-World/issues/comments/1",
     "html_url": "https://github.com/octocat/Hello-World/issues/1347#issuecomment-1",
     "body": "Me too", "user": \(octocat), "created_at": "2011-04-14T16:00:49Z",
     "updated_at": "2011-04-14T16:00:49Z", "author_association": "COLLABORATOR"}
    """

  static let comments = """
    [\(comment), {"id": 2, "node_id": "MDEyOklzc3VlQ29tbWVudDI=",
     "html_url": "https://github.com/octocat/Hello-World/issues/1347#issuecomment-2",
     "body": "Fixed in #1350 🎉", "user": \(hubot), "created_at": "2011-04-15T08:30:00Z",
     "updated_at": "2011-04-15T09:00:00Z", "author_association": "NONE"}]
    """

  static let actor = """
    {"id": 1, "login": "octocat", "display_login": "octocat", "gravatar_id": "",
     "url": "https://api.github.com/users/octocat",
     "avatar_url": "https://avatars.githubusercontent.com/u/1?"}
    """

  static let eventRepo = """
    {"id": 1296269, "name": "octocat/Hello-World",
     "url": "https://api.github.com/repos/octocat/Hello-World"}
    """

  static let events = """
    [{"id": "22249084947", "type": "WatchEvent", "actor": \(actor), "repo": \(eventRepo),
      "payload": {"action": "started"}, "public": true, "created_at": "2022-06-09T12:47:28Z"},
     {"id": "22249084964", "type": "PushEvent", "actor": \(actor), "repo": \(eventRepo),
      "payload": {"repository_id": 1296269, "push_id": 10115855396, "size": 2,
                  "distinct_size": 1, "ref": "refs/heads/master",
                  "head": "7a8f3ac80e2ad2f6842cb86f576d4bfe2c03e300",
                  "before": "883efe034920928c47fe18598c01249d1a9fdabd",
                  "commits": [{"sha": "7a8f3ac80e2ad2f6842cb86f576d4bfe2c03e300",
                               "author": {"email": "octocat@github.com", "name": "Monalisa"},
                               "message": "commit", "distinct": true,
                               "url": "https://api.github.com/repos/octocat/Hello-World/commits/7a8f3ac"},
                              {"sha": "883efe034920928c47fe18598c01249d1a9fdabd",
                               "author": {"email": "hubot@github.com", "name": "Hubot"},
                               "message": "merge", "distinct": false,
                               "url": "https://api.github.com/repos/octocat/Hello-World/commits/883efe0"}]},
      "public": true, "created_at": "2022-06-08T23:29:25Z"},
     {"id": "22249084965", "type": "IssuesEvent", "actor": \(actor), "repo": \(eventRepo),
      "payload": {"action": "closed", "issue": \(closedIssue)}, "public": true,
      "created_at": "2022-06-08T23:30:00Z"},
     {"id": "22249084966", "type": "IssueCommentEvent", "actor": \(actor), "repo": \(eventRepo),
      "payload": {"action": "created", "issue": \(openIssue), "comment": \(comment)},
      "public": false, "created_at": "2022-06-08T23:31:00Z"},
     {"id": "22249084967", "type": "PullRequestEvent", "actor": \(actor), "repo": \(eventRepo),
      "payload": {"action": "opened", "number": 1350, "pull_request": \(draftPullRequest)},
      "public": true, "created_at": "2022-06-08T23:32:00Z"}]
    """
}
