// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {INonfungiblePositionManager} from "./UniswapInterfaces.sol";

/// Holds the V3 position NFTs of its launchpad's launches. Each lock names the creator it belongs to
/// and whether the creator may take the position out (release) or never can; either way the creator
/// collects the trading fees the position earns.
contract LiquidityLocker {
    event Locked(uint256 indexed positionId, address indexed owner, bool withdrawable);
    event Released(uint256 indexed positionId, address indexed owner);

    struct Lock {
        address owner;
        bool withdrawable;
    }

    string public name;
    INonfungiblePositionManager public immutable positionManager;
    /// The launchpad that created this locker: the only one that may lock positions in it.
    address public immutable launchpad;
    mapping(uint256 => Lock) public locks;

    constructor(string memory name_, INonfungiblePositionManager positionManager_) {
        name = name_;
        positionManager = positionManager_;
        launchpad = msg.sender;
    }

    /// Records a position the launchpad minted to this locker.
    function lock(uint256 positionId, address owner, bool withdrawable) external {
        require(msg.sender == launchpad, "Locker: NOT_LAUNCHPAD");
        require(locks[positionId].owner == address(0), "Locker: LOCKED");
        locks[positionId] = Lock(owner, withdrawable);
        emit Locked(positionId, owner, withdrawable);
    }

    /// Hands a withdrawable position to its owner, who can then remove its liquidity.
    function release(uint256 positionId) external {
        Lock memory l = locks[positionId];
        require(msg.sender == l.owner, "Locker: NOT_OWNER");
        require(l.withdrawable, "Locker: NOT_WITHDRAWABLE");
        delete locks[positionId];
        positionManager.transferFrom(address(this), l.owner, positionId);
        emit Released(positionId, l.owner);
    }

    /// Pays the position's trading fees to its owner (anyone may trigger it).
    function collectFees(uint256 positionId) external returns (uint256 amount0, uint256 amount1) {
        address owner = locks[positionId].owner;
        require(owner != address(0), "Locker: NO_LOCK");
        return positionManager.collect(
            INonfungiblePositionManager.CollectParams(positionId, owner, type(uint128).max, type(uint128).max)
        );
    }
}
