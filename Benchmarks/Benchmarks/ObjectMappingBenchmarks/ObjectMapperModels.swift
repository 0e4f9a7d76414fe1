#if OBJECT_MAPPING_PEERS && canImport(ObjectMapper)
  import ObjectMapper

  // `Mappable` conformances of the corpus models for tristanhimmelman/ObjectMapper, the peer of
  // `Decode.<corpus>.ObjectMapper` and `Encode.<corpus>.ObjectMapper` (Peers.swift). They are
  // compiled only when the benchmark package is built with `OBJECT_MAPPING_PEERS` (see
  // Package.swift). Each `mapping(map:)` lists the same JSON keys, in the same order, as the
  // `CodingKeys` and the ObjectMapping `Mapping` of the model (TwitterModel.swift,
  // CitmCatalogModel.swift, CanadaModel.swift), written as an ObjectMapper user writes them:
  // `property <- map["key"]`. `init?(map:)` starts from the model's defaults, as
  // `Mapping(Type.init)` does. The type names are module-qualified: ObjectMapping has its own
  // `Mapper`.
  //
  // - The recursive retweet goes through the computed `TwitterStatus.retweetedStatus` (the setter
  //   boxes it into `TwitterStatusBox`), as the ObjectMapping mapping does.
  // - citm's `events: [String: CitmEvent]` uses ObjectMapper's dictionary-of-`Mappable` operator;
  //   its name tables (`[String: String]`, `[String: [Int]]`) and canada's `[[[Double]]]` are
  //   plain casts of the `JSONSerialization` values (`Map.value()`).

  // MARK: - TwitterModel.swift

  extension TwitterSearch: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      statuses <- map["statuses"]
      searchMetadata <- map["search_metadata"]
    }
  }

  extension TwitterSearchMetadata: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      completedIn <- map["completed_in"]
      maxID <- map["max_id"]
      maxIDString <- map["max_id_str"]
      nextResults <- map["next_results"]
      query <- map["query"]
      refreshURL <- map["refresh_url"]
      count <- map["count"]
      sinceID <- map["since_id"]
      sinceIDString <- map["since_id_str"]
    }
  }

  extension TwitterStatus: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      metadata <- map["metadata"]
      createdAt <- map["created_at"]
      id <- map["id"]
      idString <- map["id_str"]
      text <- map["text"]
      source <- map["source"]
      truncated <- map["truncated"]
      inReplyToStatusID <- map["in_reply_to_status_id"]
      inReplyToStatusIDString <- map["in_reply_to_status_id_str"]
      inReplyToUserID <- map["in_reply_to_user_id"]
      inReplyToUserIDString <- map["in_reply_to_user_id_str"]
      inReplyToScreenName <- map["in_reply_to_screen_name"]
      user <- map["user"]
      retweetCount <- map["retweet_count"]
      favoriteCount <- map["favorite_count"]
      entities <- map["entities"]
      favorited <- map["favorited"]
      retweeted <- map["retweeted"]
      possiblySensitive <- map["possibly_sensitive"]
      lang <- map["lang"]
      retweetedStatus <- map["retweeted_status"]
    }
  }

  extension TwitterStatusMetadata: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      resultType <- map["result_type"]
      isoLanguageCode <- map["iso_language_code"]
    }
  }

  extension TwitterUser: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      id <- map["id"]
      idString <- map["id_str"]
      name <- map["name"]
      screenName <- map["screen_name"]
      location <- map["location"]
      description <- map["description"]
      url <- map["url"]
      entities <- map["entities"]
      protected <- map["protected"]
      followersCount <- map["followers_count"]
      friendsCount <- map["friends_count"]
      listedCount <- map["listed_count"]
      createdAt <- map["created_at"]
      favouritesCount <- map["favourites_count"]
      utcOffset <- map["utc_offset"]
      timeZone <- map["time_zone"]
      geoEnabled <- map["geo_enabled"]
      verified <- map["verified"]
      statusesCount <- map["statuses_count"]
      lang <- map["lang"]
      contributorsEnabled <- map["contributors_enabled"]
      isTranslator <- map["is_translator"]
      isTranslationEnabled <- map["is_translation_enabled"]
      profileBackgroundColor <- map["profile_background_color"]
      profileBackgroundImageURL <- map["profile_background_image_url"]
      profileBackgroundImageURLHTTPS <- map["profile_background_image_url_https"]
      profileBackgroundTile <- map["profile_background_tile"]
      profileImageURL <- map["profile_image_url"]
      profileImageURLHTTPS <- map["profile_image_url_https"]
      profileBannerURL <- map["profile_banner_url"]
      profileLinkColor <- map["profile_link_color"]
      profileSidebarBorderColor <- map["profile_sidebar_border_color"]
      profileSidebarFillColor <- map["profile_sidebar_fill_color"]
      profileTextColor <- map["profile_text_color"]
      profileUseBackgroundImage <- map["profile_use_background_image"]
      defaultProfile <- map["default_profile"]
      defaultProfileImage <- map["default_profile_image"]
      following <- map["following"]
      followRequestSent <- map["follow_request_sent"]
      notifications <- map["notifications"]
    }
  }

  extension TwitterUserEntities: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      url <- map["url"]
      description <- map["description"]
    }
  }

  extension TwitterURLList: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      urls <- map["urls"]
    }
  }

  extension TwitterURL: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      url <- map["url"]
      expandedURL <- map["expanded_url"]
      displayURL <- map["display_url"]
      indices <- map["indices"]
    }
  }

  extension TwitterEntities: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      hashtags <- map["hashtags"]
      symbols <- map["symbols"]
      urls <- map["urls"]
      userMentions <- map["user_mentions"]
      media <- map["media"]
    }
  }

  extension TwitterHashtag: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      text <- map["text"]
      indices <- map["indices"]
    }
  }

  extension TwitterUserMention: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      screenName <- map["screen_name"]
      name <- map["name"]
      id <- map["id"]
      idString <- map["id_str"]
      indices <- map["indices"]
    }
  }

  extension TwitterMedia: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      id <- map["id"]
      idString <- map["id_str"]
      indices <- map["indices"]
      mediaURL <- map["media_url"]
      mediaURLHTTPS <- map["media_url_https"]
      url <- map["url"]
      displayURL <- map["display_url"]
      expandedURL <- map["expanded_url"]
      type <- map["type"]
      sizes <- map["sizes"]
      sourceStatusID <- map["source_status_id"]
      sourceStatusIDString <- map["source_status_id_str"]
    }
  }

  extension TwitterMediaSizes: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      medium <- map["medium"]
      small <- map["small"]
      thumb <- map["thumb"]
      large <- map["large"]
    }
  }

  extension TwitterMediaSize: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      w <- map["w"]
      h <- map["h"]
      resize <- map["resize"]
    }
  }

  // MARK: - CitmCatalogModel.swift

  extension CitmCatalog: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      areaNames <- map["areaNames"]
      audienceSubCategoryNames <- map["audienceSubCategoryNames"]
      blockNames <- map["blockNames"]
      events <- map["events"]
      performances <- map["performances"]
      seatCategoryNames <- map["seatCategoryNames"]
      subTopicNames <- map["subTopicNames"]
      subjectNames <- map["subjectNames"]
      topicNames <- map["topicNames"]
      topicSubTopics <- map["topicSubTopics"]
      venueNames <- map["venueNames"]
    }
  }

  extension CitmEvent: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      description <- map["description"]
      id <- map["id"]
      logo <- map["logo"]
      name <- map["name"]
      subTopicIds <- map["subTopicIds"]
      subjectCode <- map["subjectCode"]
      subtitle <- map["subtitle"]
      topicIds <- map["topicIds"]
    }
  }

  extension CitmPerformance: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      eventId <- map["eventId"]
      id <- map["id"]
      logo <- map["logo"]
      name <- map["name"]
      prices <- map["prices"]
      seatCategories <- map["seatCategories"]
      seatMapImage <- map["seatMapImage"]
      start <- map["start"]
      venueCode <- map["venueCode"]
    }
  }

  extension CitmPrice: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      amount <- map["amount"]
      audienceSubCategoryId <- map["audienceSubCategoryId"]
      seatCategoryId <- map["seatCategoryId"]
    }
  }

  extension CitmSeatCategory: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      areas <- map["areas"]
      seatCategoryId <- map["seatCategoryId"]
    }
  }

  extension CitmArea: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      areaId <- map["areaId"]
      blockIds <- map["blockIds"]
    }
  }

  // MARK: - CanadaModel.swift

  extension CanadaFeatureCollection: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      type <- map["type"]
      features <- map["features"]
    }
  }

  extension CanadaFeature: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      type <- map["type"]
      properties <- map["properties"]
      geometry <- map["geometry"]
    }
  }

  extension CanadaGeometry: ObjectMapper.Mappable {
    init?(map: ObjectMapper.Map) { self.init() }

    mutating func mapping(map: ObjectMapper.Map) {
      type <- map["type"]
      coordinates <- map["coordinates"]
    }
  }
#endif
