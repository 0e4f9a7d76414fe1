/// The payloads the showcase maps when it is run without a file.
public enum ShowcasePayloads {
  /// A realistic timeline: posts with authors, polymorphic attachments chosen by `type`, dates
  /// in a custom format, tags in one string, and the profiles keyed by user name.
  public static let timeline = #"""
    {
      "title": "Swift on the server",
      "generated_at": "2024-03-07T09:30:00Z",
      "posts": [
        {
          "id": 101,
          "text": "Shipped typed mappings for our API today.",
          "posted_at": "07/03/2024 08:15",
          "author": {"id": 1, "name": "Ann Lee", "handle": "ann"},
          "tags": "swift,json,release",
          "stats": {"likes": 42, "reposts": 7},
          "attachments": [
            {"type": "photo", "url": "https://example.com/launch.jpg",
             "size": {"width": 1024, "height": 768}, "caption": "Launch day"},
            {"type": "link", "url": "https://example.com/notes", "title": "Release notes"}
          ]
        },
        {
          "id": 102,
          "text": "Which date format do your APIs send?",
          "posted_at": "07/03/2024 08:47",
          "author": {"id": 2, "name": "Bob Stone", "handle": "bob"},
          "tags": "dates",
          "attachments": [
            {"type": "poll", "question": "Pick one",
             "options": ["ISO 8601", "epoch seconds", "dd/MM/yyyy"], "closed": "no"}
          ]
        },
        {
          "id": 103,
          "text": "Reading the results: ISO 8601 wins.",
          "posted_at": "07/03/2024 09:05",
          "author": {"id": 1, "name": "Ann Lee", "handle": "ann"},
          "stats": {"likes": "17"}
        }
      ],
      "users": {
        "ann": {"display_name": "Ann Lee", "followers": 1200, "joined": "2019-05-12"},
        "bob": {"display_name": "Bob Stone", "followers": 87, "joined": "2021-11-02"}
      }
    }
    """#

  /// The same shape with mistakes in it: a number that is not a number, a missing author name,
  /// an impossible date, a photo without its size, an attachment type no case knows, a user
  /// whose follower count is a word.
  public static let broken = #"""
    {
      "title": "Swift on the server",
      "generated_at": "2024-03-07T09:30:00Z",
      "posts": [
        {
          "id": "101abc",
          "text": "Shipped typed mappings for our API today.",
          "posted_at": "07/03/2024 08:15",
          "author": {"id": 1, "handle": "ann"},
          "attachments": [
            {"type": "photo", "url": "https://example.com/launch.jpg"},
            {"type": "video", "url": "https://example.com/launch.mp4"}
          ]
        },
        {
          "id": 102,
          "text": "Which date format do your APIs send?",
          "posted_at": "30/02/2024 08:47",
          "author": {"id": 2, "name": "Bob Stone", "handle": "bob"}
        }
      ],
      "users": {
        "ann": {"display_name": "Ann Lee", "followers": "lots"}
      }
    }
    """#

  /// A post for the validation section: mixed-case tags and a negative like count.
  public static let moderated = #"""
    {"id": 301, "text": "Validation keeps bad values out", "author": {"id": 1, "name": "Ann Lee", "handle": "ann"},
     "tags": "Swift,JSON", "stats": {"likes": -5}}
    """#

  /// A post whose text is empty, which fails validation.
  public static let moderatedEmpty = #"""
    {"id": 302, "text": "  ", "author": {"id": 2, "name": "Bob Stone", "handle": "bob"}}
    """#
}
